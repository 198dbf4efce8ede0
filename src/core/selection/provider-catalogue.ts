/**
 * What the providers offer, for front ends that let a person choose (`GET /providers`): each provider in
 * the registry, the wire APIs it is spoken to with, its default model and the model ids it is known to
 * publish (its definition's `knownModels`, the same list the CLI checks a typed model against).
 */
import { apiNamesOf, defaultModelOf, providerList, providerSettings, toWireApi } from '../config/index.js';
import type { WireApi } from '../../protocol/index.js';

export interface ProviderOffer {
  name: string;
  /** The wire API ids, the default first. */
  apis: WireApi[];
  defaultModel: string;
  /** Known model ids (the default model alone for a local server or router, whose models vary). */
  models: string[];
}

export function providerCatalogue(): ProviderOffer[] {
  return providerList().map((name) => {
    const defaultModel = defaultModelOf(name);
    const known = providerSettings(name).knownModels ?? [];
    return {
      name,
      apis: [...new Set(apiNamesOf(name).map((api) => toWireApi(name, api)))],
      defaultModel,
      models: known.includes(defaultModel) ? [...known] : [defaultModel, ...known],
    };
  });
}
