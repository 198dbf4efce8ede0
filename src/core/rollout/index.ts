export { RolloutRecorder, type RecorderOptions, type RolloutEntry } from './recorder.js';
export {
  type RecorderFileHandle,
  type RecorderFileSystem,
  ROLLOUT_FILE_MODE,
} from './recorder-file-system.js';
export { acquireConversationLock, DEFAULT_LOCK_TIMEOUT_MS, type LockOptions } from './lock.js';
export { readRolloutForResume, type ResumedRollout } from './reader.js';
export {
  type ConversationSummary,
  readConversationSummary,
  readRolloutHead,
  readRolloutTail,
  type RolloutHead,
  type RolloutTail,
} from './summary-reader.js';
export { convertCodexRollout, importCodexRollout, type CodexConversion } from './codex-import.js';
export * from './schema.js';
