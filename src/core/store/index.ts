/**
 * Conversations as files: ids, the listing, titles, counts, create/resume/delete/import, forks, transcript pages
 * and exports.
 * This file is the folder's public surface: other folders import it, never its modules (eslint.config.js).
 */
export { isConversationId, newConversationId } from './conversation-id.js';
export {
  applyTitle,
  isInWorkspace,
  listConversations,
  readActiveId,
  rolloutPathIn,
  workspaceFirst,
  workspaceOf,
} from './conversation-list.js';
export { ConversationManager } from './conversation-manager.js';
export type { ConversationManagerOptions } from './conversation-manager.js';
export {
  addTokenUsage,
  countMessages,
  firstUserPreview,
  previewOf,
  tokenCountEvent,
} from './conversation-stats.js';
export { checkTitle, readTitles, writeTitle } from './conversation-titles.js';
export { EXPORT_FORMATS, formatExport } from './export-formats.js';
export type { ExportFormat } from './export-formats.js';
export type { ForkOptions } from './fork-options.js';
