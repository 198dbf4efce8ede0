/**
 * Anthropic's model list (`GET /v1/models`, every page) through the official SDK: each model's id with
 * the limits the list reports (`max_input_tokens`, `max_tokens`), which win over the built-in catalogue.
 */
import Anthropic from '@anthropic-ai/sdk';
import type { ListedModel, ModelListRequest } from '../definition.js';
import { listingError } from '../shared/list-models.js';
import { nodeHttpFetch } from '../shared/node-http-fetch.js';

export async function listAnthropicModels(request: ModelListRequest): Promise<ListedModel[]> {
  const sdk = new Anthropic({
    apiKey: request.apiKey ?? null,
    baseURL: request.baseUrl,
    fetch: nodeHttpFetch,
    maxRetries: 0,
    timeout: request.timeoutMs ?? 15_000,
    ...(request.headers ? { defaultHeaders: { ...request.headers } } : {}),
  });
  const models: ListedModel[] = [];
  try {
    for await (const model of sdk.models.list({ limit: 1000 })) {
      models.push({
        id: model.id,
        ...(positive(model.max_input_tokens) ? { contextWindow: model.max_input_tokens } : {}),
        ...(positive(model.max_tokens) ? { maxOutputTokens: model.max_tokens } : {}),
      });
    }
  } catch (error) {
    throw listingError('anthropic-messages', `${request.baseUrl}/v1/models`, error);
  }
  return models.sort((a, b) => a.id.localeCompare(b.id));
}

function positive(value: number | null | undefined): value is number {
  return typeof value === 'number' && value > 0;
}
