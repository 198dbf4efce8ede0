/**
 * Reading the files Cody opens on its own, defensively: a leaf every core folder may import.
 * This file is the folder's public surface: other folders import it, never its modules (eslint.config.js).
 */
export { readOwnFile, readOwnFileSync, RefusedFileError } from './read-own-file.js';
export type { OwnFile, ReadOwnFileOptions, RefusalReason } from './read-own-file.js';
export { openOwnFile, openOwnFileSync } from './open-own-file.js';
