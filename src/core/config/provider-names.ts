/**
 * The providers Cody knows by name: those of the providers' registry (src/providers/registry.ts), a
 * vendor's own first, then the presets (kept free of zod: the library's public types reach it).
 */
import { isProviderName, providerNames } from '../../providers/lookup.js';

/** A provider name, as the registry lists it (`openai`, `ollama`, …); checked with {@link isProvider}. */
export type Provider = string;

/** The provider names, in the order help and errors list them. */
export function providerList(): string[] {
  return providerNames();
}

export function isProvider(value: unknown): value is Provider {
  return isProviderName(value);
}
