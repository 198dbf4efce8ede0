/**
 * Questions about wire APIs and providers, answered from the registry at the time they are asked (so a
 * definition registered later, as a test does, is seen everywhere). Core, the CLI and the server ask
 * these instead of keeping tables of their own. The providers' second public entry point beside
 * `index.ts`: it loads the registry and nothing of the clients, so `cody list`, which checks the
 * config's provider, runs no client code (index.ts also loads the shared client helpers).
 */
import type { ModelEntry, PriceEntry, ProviderDefinition, ProviderPreset } from './definition.js';
import { definitions } from './registry.js';

export type * from './definition.js';
export { definitions, registerDefinition } from './registry.js';

/** The wire API ids, in registry order. */
export function wireApis(): string[] {
  return definitions().map((definition) => definition.api);
}

/** Whether `value` is a registered wire API id (as read from a rollout or a config, before it is trusted). */
export function isWireApi(value: unknown): value is string {
  return definitions().some((definition) => definition.api === value);
}

/** The definition of a wire API id, if registered. */
export function definitionOf(api: string): ProviderDefinition | undefined {
  return definitions().find((definition) => definition.api === api);
}

/** The definition of a wire API id; throws for an id no definition has (a programming error). */
export function requireDefinition(api: string): ProviderDefinition {
  const definition = definitionOf(api);
  if (!definition) throw new Error(`unknown wire API ${api}`);
  return definition;
}

/**
 * Every provider, once: the vendors' own in registry order, then the presets (servers reached over
 * another vendor's API) in registry order. Help, completions and errors list them so.
 */
export function providerPresets(): ProviderPreset[] {
  const all = [...new Set(definitions().flatMap((definition) => definition.providers))];
  return [
    ...all.filter((preset) => preset.preset !== true),
    ...all.filter((preset) => preset.preset === true),
  ];
}

/** The provider names a person may choose, in registry order. */
export function providerNames(): string[] {
  return providerPresets().map((preset) => preset.name);
}

/** Whether `value` names a registered provider. */
export function isProviderName(value: unknown): value is string {
  return typeof value === 'string' && providerPresets().some((preset) => preset.name === value);
}

/** A provider's settings, if it is registered. */
export function presetOf(provider: string): ProviderPreset | undefined {
  return providerPresets().find((preset) => preset.name === provider);
}

/** A provider's settings; throws for a name that is not registered (a programming error). */
export function requirePreset(provider: string): ProviderPreset {
  const preset = presetOf(provider);
  if (!preset) throw new Error(`unknown provider ${provider}`);
  return preset;
}

/** The wire APIs serving a provider, its default first. */
export function apisOfProvider(provider: string): ProviderDefinition[] {
  return definitions().filter((definition) =>
    definition.providers.some((preset) => preset.name === provider),
  );
}

/** The API's own provider (the first it lists), whose variables its client reads. */
export function ownProviderOf(api: string): ProviderPreset | undefined {
  return definitionOf(api)?.providers[0];
}

/** The environment variables holding the key of each registered provider and its other secrets. */
export function secretVariables(): string[] {
  return [
    ...new Set(
      providerPresets().flatMap((preset) => [...preset.keyVariables, ...(preset.secretVariables ?? [])]),
    ),
  ];
}

/** The model catalogue: every definition's entries in registry order, an entry two APIs share once. */
export function modelEntries(): ModelEntry[] {
  return [...new Set(definitions().flatMap((definition) => definition.models))];
}

/** The price list: every definition's entries in registry order, an entry two APIs share once. */
export function priceEntries(): PriceEntry[] {
  return [...new Set(definitions().flatMap((definition) => definition.prices))];
}

/** The variables an API's client reads its key from. */
export function apiKeyVariables(api: string): readonly string[] {
  return ownProviderOf(api)?.keyVariables ?? [];
}

/** What to check when an API refuses the credentials ("the key in OPENAI_API_KEY"), for error lines. */
export function credentialHint(api: string): string {
  const own = ownProviderOf(api);
  return own?.credentialHint ?? `the key in ${(own?.keyVariables ?? []).join(' or ')}`;
}
