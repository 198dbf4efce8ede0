/**
 * `config.json` and `$CODY_HOME`: reading it safely, its schema, the selection it names, the paths Cody owns.
 * This file is the folder's public surface: other folders import it, never its modules (eslint.config.js).
 */
export {
  DEFAULT_COMPACT_THRESHOLD,
  DEFAULT_PROVIDER,
  DEFAULT_TOOL_OUTPUT_TOKENS,
  allApiNames,
  apiNameOf,
  apiNamesOf,
  authModeOf,
  defaultModelOf,
  isPresetProvider,
  isProvider,
  isWireApi,
  listsModels,
  loadConfig,
  providerList,
  providerOfApi,
  providerSettings,
  providersListingModels,
  resolveSelection,
  retryPolicyOf,
  saveConfig,
  signInModes,
  signInServes,
  toWireApi,
} from './config.js';
export type { AuthMode, CodyConfig, Provider, Selection } from './config.js';
export { ensureCodyHome, resolveCodyPaths } from './paths.js';
export type { CodyPaths } from './paths.js';
export { backoffDelayMs, DEFAULT_RETRY_POLICY, sleep } from './retry.js';
export type { RetryPolicy } from './retry.js';
export { privateLockFs } from './private-lock-fs.js';
export { forbiddenKeyPath } from './read-config-file.js';
