/** The tool runtime's settings from config.json, the same for every front end. */
import type { CodyConfig } from '../config/index.js';
import type { ToolRuntimeOptions } from './runtime.js';

export type ConfiguredToolOptions = Pick<
  ToolRuntimeOptions,
  | 'dangerousCommands'
  | 'sandbox'
  | 'shellTimeoutMs'
  | 'safeCommands'
  | 'shellEnvironment'
  | 'webFetch'
  | 'unconfined'
>;

export function toolOptionsFromConfig(config: CodyConfig): ConfiguredToolOptions {
  return {
    ...(config.dangerousCommands
      ? {
          dangerousCommands: config.dangerousCommands.map((entry) =>
            typeof entry === 'string' ? { pattern: entry, reason: `matches ${entry}` } : entry,
          ),
        }
      : {}),
    ...(config.sandbox ? { sandbox: config.sandbox } : {}),
    ...(config.shellTimeoutMs !== undefined ? { shellTimeoutMs: config.shellTimeoutMs } : {}),
    ...(config.safeCommands ? { safeCommands: config.safeCommands } : {}),
    ...(config.shellEnvironment ? { shellEnvironment: config.shellEnvironment } : {}),
    ...(config.webFetch ? { webFetch: config.webFetch } : {}),
    ...(config.dangerouslySkipConfinement === true ? { unconfined: true } : {}),
  };
}
