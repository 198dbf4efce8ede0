export { RolloutRecorder, type RecorderFileSystem, type RecorderOptions } from './recorder.js';
export { acquireConversationLock, DEFAULT_LOCK_TIMEOUT_MS, type LockOptions } from './lock.js';
export { readRolloutForResume, type ResumedRollout } from './reader.js';
export * from './schema.js';
