/**
 * The rollout files: the one store that appends and reads them, their line shape, locks and the Codex import.
 * This file is the folder's public surface: other folders import it, never its modules (eslint.config.js).
 * It holds only what is light to load (no zod): the validating reader, the recorder, the transcript and the
 * Codex import are loaded on demand with `import()` of their module, so `cody list` never loads them.
 */
export { acquireConversationLock, DEFAULT_LOCK_TIMEOUT_MS, type LockOptions } from './lock.js';
export type { RecorderOptions, RolloutEntry, RolloutRecorder } from './recorder.js';
export type { RecorderFileHandle, RecorderFileSystem } from './recorder-file-system.js';
export type { ResumedRollout } from './reader.js';
export type { HistoryAtEntry } from './history-at-entry.js';
export type { ConversationSummary, RolloutHead, RolloutTail } from './summary-reader.js';
export type { CodexConversion } from './codex-import.js';
export type { RolloutLine, TurnContextPayload } from './schema.js';
export type { RecapMessage, Transcript, TranscriptEntry, TranscriptMeta } from './transcript.js';
export { codexModelProvider, codexPermissions, codyEventOf } from './codex-lines.js';
export {
  generateTitle,
  isCountedMessage,
  isTypedUserMessage,
  partsText,
  previewText,
  typedUserText,
} from './definitions.js';
export { lineOrUndefined, payloadRecord } from './line.js';
export { summarizeConversations } from './list-cache.js';
export { RolloutStore } from './store.js';
export { unansweredNote } from './unanswered-turn.js';
export { SUMMARY_PREFIX, summaryMessage } from './summary-prefix.js';
export { ROLLOUT_SUFFIX, rolloutPathIn } from './rollout-path.js';
export type { TranscriptPage, TranscriptPageMeta, TranscriptPageOptions } from './transcript-page.js';
export { messageText } from './message-text.js';
export { dropLastTurns } from './rollback.js';
export { turnStarts } from './rollback.js';
