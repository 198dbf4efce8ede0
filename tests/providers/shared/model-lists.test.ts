/**
 * Each API's model list (its definition's `listModels`, through the official SDK where there is one)
 * against the fake provider's list endpoints on loopback: the ids, the limits Anthropic and Gemini
 * report, every page read, the credentials on the wire, and a refused key as an auth error.
 */
import { describe, expect, it } from 'vitest';
import { requireDefinition } from '../../../src/providers/index.js';
import { withFakeServer } from '../fake-server.js';

const server = withFakeServer();

function list(api: string, baseUrl: string, apiKey?: string) {
  const listModels = requireDefinition(api).listModels;
  if (!listModels) throw new Error(`${api} has no list`);
  return listModels({ baseUrl, ...(apiKey ? { apiKey } : {}) });
}

describe('model lists over loopback', () => {
  it('OpenAI (and DeepSeek, any OpenAI-compatible server): GET /models with the key as a bearer', async () => {
    server.models = ['gpt-5.4', 'deepseek-v4-pro', 'gpt-5.2'];
    const models = await list('openai-chat', `${server.url}/v1`, 'sk-list-0001');
    expect(models).toEqual([{ id: 'deepseek-v4-pro' }, { id: 'gpt-5.2' }, { id: 'gpt-5.4' }]);
    const request = server.requests.at(-1);
    expect(request?.url).toBe('/v1/models');
    expect(request?.headers.authorization).toBe('Bearer sk-list-0001');
  });

  it('Anthropic: every page of /v1/models, with max_input_tokens and max_tokens', async () => {
    server.models = ['claude-sonnet-5-5', 'claude-opus-5-5', 'claude-haiku-5-5'];
    server.modelLimits = {
      'claude-sonnet-5-5': { contextWindow: 1_000_000, maxOutputTokens: 128_000 },
      'claude-opus-5-5': { contextWindow: 500_000, maxOutputTokens: 96_000 },
    };
    server.listPageSize = 2;
    try {
      const models = await list('anthropic-messages', server.url, 'sk-ant-list-0001');
      expect(models).toEqual([
        { id: 'claude-haiku-5-5' },
        { id: 'claude-opus-5-5', contextWindow: 500_000, maxOutputTokens: 96_000 },
        { id: 'claude-sonnet-5-5', contextWindow: 1_000_000, maxOutputTokens: 128_000 },
      ]);
      const pages = server.requests.filter((request) => request.url.startsWith('/v1/models'));
      expect(pages).toHaveLength(2);
      expect(pages[1]?.url).toContain('after_id=claude-opus-5-5');
      // The pinned SDK sends the key as a bearer token, with its own API version.
      expect(pages[0]?.headers.authorization).toBe('Bearer sk-ant-list-0001');
      expect(pages[0]?.headers['anthropic-version']).toEqual(expect.any(String));
    } finally {
      server.listPageSize = 1000;
      server.modelLimits = {};
    }
  });

  it('Gemini: every page of models.list, the content models only, with their token limits', async () => {
    server.models = ['gemini-3.8-flash', 'gemini-embedding-001', 'gemini-3.1-pro-preview'];
    server.modelLimits = {
      'gemini-3.8-flash': { contextWindow: 2_097_152, maxOutputTokens: 131_072 },
      'gemini-3.1-pro-preview': { contextWindow: 1_048_576, maxOutputTokens: 65_536 },
    };
    server.listPageSize = 2;
    try {
      const models = await list('gemini', server.url, 'gemini-list-0001');
      expect(models).toEqual([
        { id: 'gemini-3.1-pro-preview', contextWindow: 1_048_576, maxOutputTokens: 65_536 },
        { id: 'gemini-3.8-flash', contextWindow: 2_097_152, maxOutputTokens: 131_072 },
      ]);
      const pages = server.requests.filter((request) => request.url.startsWith('/v1beta/models'));
      expect(pages).toHaveLength(2);
      expect(pages[0]?.headers['x-goog-api-key']).toBe('gemini-list-0001');
    } finally {
      server.listPageSize = 1000;
      server.modelLimits = {};
    }
  });

  it.each(['anthropic-messages', 'gemini'])('%s: a refused key is an auth error', async (api) => {
    server.authorize = () => false;
    try {
      await expect(list(api, server.url, 'wrong')).rejects.toMatchObject({ kind: 'auth', statusCode: 401 });
    } finally {
      server.authorize = undefined;
    }
  });
});
