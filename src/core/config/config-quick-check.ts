/**
 * The config file in the shapes `cody set-provider` and `cody auth` write (provider, api, model, base URLs,
 * a sign-in choice), accepted without loading zod: ~13 ms on every command that reads the config, which
 * is every command once a person has chosen a provider. Anything else — another key, another type, a
 * doubtful value — returns undefined and goes through the full schema (config-schema.ts), which gives the
 * precise error. What this accepts, the schema accepts unchanged (tests/unit/core/config/config-quick-check.test.ts).
 */
import { isRecord } from '../../protocol/index.js';
import { presetOf } from '../../providers/lookup.js';
import { isProvider } from './provider-names.js';

type QuickConfig = Record<string, unknown>;

/** Whether `provider` takes the sign-in `choice` (its definition's `signIn.mode`). */
function isSignInOf(provider: string, choice: unknown): boolean {
  return isProvider(provider) && presetOf(provider)?.signIn?.mode === choice;
}

/** An http(s) URL: anything else would be retried as a network error on every turn. */
export function isHttpUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

const CHECKS: Readonly<Record<string, (value: unknown) => boolean>> = {
  provider: isProvider,
  api: (value) => typeof value === 'string',
  model: (value) => typeof value === 'string' && value.length > 0,
  baseUrls: (value) => isRecord(value) && Object.values(value).every(isHttpUrl),
  auth: (value) => isRecord(value) && Object.entries(value).every(([key, choice]) => isSignInOf(key, choice)),
  selectedAt: isTimestamp,
};

/** An ISO-8601 time, as `cody set-provider` writes `selectedAt`. */
export function isTimestamp(value: unknown): boolean {
  return typeof value === 'string' && !Number.isNaN(Date.parse(value));
}

/** The config as read, when it is one of the common shapes; undefined: validate it with the schema. */
export function quickCheckedConfig(raw: unknown): QuickConfig | undefined {
  if (!isRecord(raw)) return undefined;
  for (const [key, value] of Object.entries(raw)) {
    // Own keys only: `constructor` or `__proto__` must not find Object.prototype's members.
    const check = Object.hasOwn(CHECKS, key) ? CHECKS[key] : undefined;
    if (!check?.(value)) return undefined;
  }
  return raw;
}
