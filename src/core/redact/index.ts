/**
 * Secrets out of what Cody shows and keeps: the exact secrets it holds, key shapes, patterns, streaming redaction.
 * This file is the folder's public surface: other folders import it, never its modules (eslint.config.js).
 */
export { environmentSecrets, knownSecrets, knownSecretsRedactor } from './known-secrets.js';
export { redactEvents } from './redact-stream.js';
export { compileMatchers, createRedactor, redactDeep, redactText, replaceSecrets } from './redact.js';
export type { Matchers, Redactor } from './redact.js';
export { REDACTED } from './redact.js';
