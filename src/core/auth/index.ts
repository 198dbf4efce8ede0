/**
 * Sign-in and keys: stored API keys, the Codex and Claude sign-in files, refreshing bearers, which credential a
 * client is built with, and what `cody auth status` reports.
 * This file is the folder's public surface: other folders import it, never its modules (eslint.config.js).
 */
export { authStatus } from './auth-status.js';
export type { ProviderAuthStatus } from './auth-status.js';
export { claudeCredentialsFile } from './claude-signin.js';
export { codexAuthFile } from './codex-signin.js';
export { MAX_CREDENTIAL_FILE_BYTES } from './credential-file.js';
export { keyStoreFile, lastFour, loginProviders, readStoredKeys, updateStoredKey } from './key-store.js';
export { endpointOf, endpointSettings, keyFromEnvironment } from './provider-endpoints.js';
export { clientCredentials } from './resolve-credentials.js';
export { signInFiles } from './sign-in-files.js';
