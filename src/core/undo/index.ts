/**
 * Undo: ghost snapshots of the work tree per turn, the changes a turn made, and restoring them without touching
 * what the user changed since.
 * This file is the folder's public surface: other folders import it, never its modules (eslint.config.js).
 */
export type { TurnChangesPayload } from './turn-changes.js';
export type { UndoResult } from './undo-turns.js';
export type { DiffStat } from './turn-diff.js';
export { changesSince } from './changes-since.js';
