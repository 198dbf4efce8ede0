/**
 * Gemini's `models.list` (every page) through the official SDK: the models that generate content, each
 * with its `inputTokenLimit` and `outputTokenLimit`, which win over the built-in catalogue.
 */
import { GoogleGenAI } from '@google/genai';
import type { ListedModel, ModelListRequest } from '../definition.js';
import { listingError } from '../shared/list-models.js';
import { nodeHttpFetch } from '../shared/node-http-fetch.js';

export async function listGeminiModels(request: ModelListRequest): Promise<ListedModel[]> {
  const sdk = new GoogleGenAI({
    apiKey: request.apiKey ?? '',
    vertexai: false,
    httpOptions: {
      baseUrl: request.baseUrl,
      fetch: nodeHttpFetch,
      timeout: request.timeoutMs ?? 15_000,
      ...(request.headers ? { headers: { ...request.headers } } : {}),
    },
  });
  const models: ListedModel[] = [];
  try {
    const pager = await sdk.models.list({ config: { pageSize: 1000 } });
    for await (const model of pager) {
      const actions = model.supportedActions ?? [];
      if (model.name === undefined || !actions.includes('generateContent')) continue;
      models.push({
        id: model.name.replace(/^models\//, ''),
        ...(positive(model.inputTokenLimit) ? { contextWindow: model.inputTokenLimit } : {}),
        ...(positive(model.outputTokenLimit) ? { maxOutputTokens: model.outputTokenLimit } : {}),
      });
    }
  } catch (error) {
    throw listingError('gemini', `${request.baseUrl.replace(/\/+$/, '')}/v1beta/models`, error);
  }
  return models.sort((a, b) => a.id.localeCompare(b.id));
}

function positive(value: number | undefined): value is number {
  return typeof value === 'number' && value > 0;
}
