/**
 * Per provider, from its definition in the providers' registry: where its key comes from, its endpoint
 * variable and default, whether it needs a key at all, and the headers it wants on every request.
 */
import { requirePreset } from '../../providers/lookup.js';
import type { Provider } from '../config/index.js';

export interface ProviderEndpoint {
  /** Variables holding the key, the first one set wins. */
  keyVariables: readonly string[];
  baseUrlVariable: string;
  /** Absent: the client derives it (Bedrock: from the region). */
  defaultBaseUrl?: string;
  /** Local servers answer without a key; the hosted APIs refuse. */
  needsKey: boolean;
  /** Sent with every request. */
  headers?: Readonly<Record<string, string>>;
}

/** The provider's endpoint settings; throws for a provider the registry does not know. */
export function endpointSettings(provider: Provider): ProviderEndpoint {
  return requirePreset(provider);
}

type Env = Readonly<Record<string, string | undefined>>;

function firstSet(values: ReadonlyArray<string | undefined>): string | undefined {
  return values.map((value) => value?.trim() ?? '').find((value) => value !== '');
}

/** The provider's key from its variables, with the variable's name. */
export function keyFromEnvironment(
  provider: Provider,
  env: Env,
): { key: string; variable: string } | undefined {
  for (const variable of endpointSettings(provider).keyVariables) {
    const key = firstSet([env[variable]]);
    if (key !== undefined) return { key, variable };
  }
  return undefined;
}

/**
 * The endpoint: the config's base URL, then the provider's variable, then its default (undefined when
 * the provider has none and the client derives it).
 */
export function endpointOf(provider: Provider, configured: string | undefined, env: Env): string | undefined {
  const endpoint = endpointSettings(provider);
  return (firstSet([configured, env[endpoint.baseUrlVariable]]) ?? endpoint.defaultBaseUrl)?.replace(
    /\/+$/,
    '',
  );
}
