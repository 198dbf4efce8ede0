/**
 * The environment tool processes (shell commands) get: never Cody's credentials. Config
 * `shellEnvironment` chooses what is inherited (`all`, `core`, `none`), what is removed (`exclude`,
 * wildcard patterns, case-insensitive) and what is set; by default every variable whose name contains
 * KEY, SECRET, TOKEN or PASSWORD is removed too (`ignoreDefaultExcludes: true` keeps them).
 */
import { secretVariables } from '../../providers/lookup.js';

export interface ShellEnvironmentPolicy {
  inherit?: 'all' | 'core' | 'none';
  /** Names to remove, with `*` wildcards, case-insensitive. */
  exclude?: readonly string[];
  /** Variables set last (they may name anything, credentials included: the person asked for them). */
  set?: Readonly<Record<string, string>>;
  /** Keep variables named like *KEY*, *SECRET*, *TOKEN*, *PASSWORD* (Cody's own keys are still removed). */
  ignoreDefaultExcludes?: boolean;
}

/** What `inherit: "core"` keeps. */
export const CORE_VARIABLES: readonly string[] = [
  'HOME',
  'LOGNAME',
  'PATH',
  'SHELL',
  'USER',
  'USERNAME',
  'TMPDIR',
  'TEMP',
  'TMP',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TERM',
  'TZ',
];

export const DEFAULT_EXCLUDES: readonly string[] = ['*KEY*', '*SECRET*', '*TOKEN*', '*PASSWORD*'];

/** Every variable Cody reads a provider key (or another provider secret) from. */
export function credentialVariables(): string[] {
  return secretVariables();
}

/** The environment a tool process starts with, from Cody's own. */
export function toolEnvironment(
  base: NodeJS.ProcessEnv,
  policy: ShellEnvironmentPolicy = {},
): NodeJS.ProcessEnv {
  const inherit = policy.inherit ?? 'all';
  const core = new Set(CORE_VARIABLES);
  const excludes = [
    ...(policy.ignoreDefaultExcludes === true ? [] : DEFAULT_EXCLUDES),
    ...(policy.exclude ?? []),
  ].map(wildcard);
  const credentials = new Set(credentialVariables());
  const result: NodeJS.ProcessEnv = {};
  if (inherit !== 'none') {
    for (const [name, value] of Object.entries(base)) {
      if (value === undefined || credentials.has(name)) continue;
      if (inherit === 'core' && !core.has(name)) continue;
      if (excludes.some((pattern) => pattern.test(name))) continue;
      result[name] = value;
    }
  }
  return { ...result, ...(policy.set ?? {}) };
}

function wildcard(pattern: string): RegExp {
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`, 'i');
}
