/**
 * The engine: `createCody`, the one place config becomes a runtime, and the registry of live conversations.
 * This file is the folder's public surface: other folders import it, never its modules (eslint.config.js).
 */
export { createCody } from './cody.js';
export type { Cody, CreateCodyOptions } from './cody-api.js';
export type { ConversationDraft, ConversationPeek, ExportOptions } from './cody-api.js';
export type { StartOptions, TurnDiff, UndoRequest } from './cody-api.js';
