/**
 * A fifth wire API appears everywhere by its registry entry alone: registered here (a fake definition
 * that shares nothing with the four), it is a provider name, an API id, a config value, a set-provider
 * choice, a catalogue and price entry, a key variable kept from tools and redacted, a completion and a
 * client — with no other table to edit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completionScript } from '../../../src/cli/completion.js';
import { unknownModelWarning } from '../../../src/cli/known-models.js';
import { costOf } from '../../../src/core/selection/cost.js';
import { knownModelIds } from '../../../src/cli/known-models.js';
import { loginProviders } from '../../../src/core/auth/key-store.js';
import { endpointOf, keyFromEnvironment } from '../../../src/core/auth/provider-endpoints.js';
import { clientCredentials } from '../../../src/core/auth/resolve-credentials.js';
import { quickCheckedConfig } from '../../../src/core/config/config-quick-check.js';
import { configSchema } from '../../../src/core/config/config-schema.js';
import {
  allApiNames,
  apiNameOf,
  providerList,
  resolveSelection,
  toWireApi,
} from '../../../src/core/config/config.js';
import { imageTokens } from '../../../src/core/images/image-tokens.js';
import { keyVariables } from '../../../src/core/redact/known-secrets.js';
import { encodingFor } from '../../../src/core/tokens/index.js';
import { PNG_1X1_BASE64 } from '../../e2e/image-fixtures.js';
import {
  acceptsImages,
  lookupModelLimits,
  reasoningSupport,
} from '../../../src/core/selection/model-catalog.js';
import { applyProviderChoice } from '../../../src/core/selection/provider-choice.js';
import { credentialVariables } from '../../../src/core/tools/tool-environment.js';
import { describeProviderFailure } from '../../../src/core/turn/turn-failure.js';
import { ProviderError, type ClientOptions, type ModelClient } from '../../../src/protocol/index.js';
import {
  createModelClient,
  isWireApi,
  modelFamily,
  registerDefinition,
  wireApis,
  type ProviderDefinition,
} from '../../../src/providers/index.js';

const built: ClientOptions[] = [];

const fifth: ProviderDefinition = {
  api: 'acme-wire',
  apiName: 'wire',
  title: 'Acme Wire',
  providers: [
    {
      name: 'acme',
      defaultModel: 'acme-large-2',
      keyVariables: ['ACME_TOKEN'],
      secretVariables: ['ACME_SIGNING_SECRET'],
      baseUrlVariable: 'ACME_ENDPOINT',
      defaultBaseUrl: 'https://api.acme.test/v9/',
      needsKey: true,
      storesKey: true,
      ownsModels: /^acme-/,
      knownModels: ['acme-large-2', 'acme-small-2'],
    },
  ],
  createClient: (options) => {
    built.push(options);
    const client: ModelClient = { api: options.api, model: options.model, stream: async function* () {} };
    return Promise.resolve(client);
  },
  modelFamily: (model) => model.replace(/-\d+$/, ''),
  models: [{ pattern: /^acme-large/, contextWindow: 333_000, maxOutputTokens: 11_000, reasoning: true }],
  prices: [{ pattern: /^acme-large/, input: 7, output: 21 }],
  imageTokens: (image) => (image.size ? 4242 : undefined),
  exactEncoding: (model) => (model === 'acme-large-2' ? 'cl100k' : undefined),
};

let unregister: () => void;
beforeAll(() => {
  unregister = registerDefinition(fifth);
});
afterAll(() => unregister());

describe('a fifth wire API, registered alone', () => {
  it('is a wire API id and a provider name, after the built-in five', () => {
    expect(wireApis()).toEqual([
      'openai-chat',
      'openai-responses',
      'anthropic-messages',
      'gemini',
      'bedrock-converse',
      'acme-wire',
    ]);
    expect(isWireApi('acme-wire')).toBe(true);
    expect(providerList()).toContain('acme');
    expect(allApiNames()).toContain('wire');
    expect(loginProviders()).toContain('acme');
  });

  it('is chosen, validated and resolved as set-provider does it, with its preset', () => {
    expect(toWireApi('acme', 'wire')).toBe('acme-wire');
    expect(toWireApi('acme', 'acme-wire')).toBe('acme-wire');
    expect(apiNameOf('acme-wire')).toBe('wire');
    expect(() => toWireApi('acme', 'chat')).toThrow(
      /Provider 'acme' has no API 'chat'. Choose one of: wire\./,
    );
    const config = applyProviderChoice({}, { provider: 'acme' });
    expect(resolveSelection(config)).toEqual({
      provider: 'acme',
      apiName: 'wire',
      api: 'acme-wire',
      model: 'acme-large-2',
    });
    // Its models belong to it: naming one with another vendor's provider is refused.
    expect(() => applyProviderChoice({}, { provider: 'anthropic', model: 'acme-large-2' })).toThrow(
      /belongs to acme, not anthropic/,
    );
  });

  it('is a valid config.json provider, with and without zod', () => {
    const raw = { provider: 'acme', api: 'wire', model: 'acme-small-2' };
    expect(quickCheckedConfig(raw)).toEqual(raw);
    expect(configSchema.safeParse(raw).success).toBe(true);
    expect(configSchema.safeParse({ provider: 'acme-typo' }).success).toBe(false);
  });

  it('has its catalogue, reasoning, image and price entries', () => {
    expect(lookupModelLimits('acme-large-2')).toEqual({
      contextWindow: 333_000,
      maxOutputTokens: 11_000,
      source: 'catalog',
    });
    expect(reasoningSupport('acme-large-2')).toEqual({ reasons: true, effort: false });
    expect(acceptsImages('acme-large-2')).toBe(true);
    expect(costOf('acme-large-2', { inputTokens: 1_000_000, cachedInputTokens: 0, outputTokens: 0 })).toBe(7);
    expect(knownModelIds()).toContain('acme-small-2');
    expect(unknownModelWarning('acme', 'acme-lrage-2', false)).toMatch(/did you mean 'acme-large-2'/);
  });

  it('has its image token rule and tokenizer', () => {
    const part = { type: 'input_image' as const, image_url: `data:image/png;base64,${PNG_1X1_BASE64}` };
    expect(imageTokens(part, 'acme-wire')).toBe(4242);
    // With no API known, the largest of the registered rules.
    expect(imageTokens(part)).toBe(4242);
    expect(imageTokens(part, 'gemini')).toBe(258);
    expect(encodingFor('acme-wire', 'acme-large-2')).toBe('cl100k');
    expect(encodingFor('acme-wire', 'acme-small-2')).toBeUndefined();
  });

  it('has its key and endpoint variables, kept from tools and redacted', () => {
    const env = { ACME_TOKEN: 'tok-123', ACME_ENDPOINT: 'http://127.0.0.1:9/acme/' };
    expect(keyFromEnvironment('acme', env)).toEqual({ key: 'tok-123', variable: 'ACME_TOKEN' });
    expect(endpointOf('acme', undefined, env)).toBe('http://127.0.0.1:9/acme');
    expect(endpointOf('acme', undefined, {})).toBe('https://api.acme.test/v9');
    expect(keyVariables()).toEqual(expect.arrayContaining(['ACME_TOKEN', 'ACME_SIGNING_SECRET']));
    expect(credentialVariables()).toEqual(expect.arrayContaining(['ACME_TOKEN', 'ACME_SIGNING_SECRET']));
    const failure = new ProviderError({
      api: 'acme-wire',
      kind: 'auth',
      message: 'refused',
      statusCode: 401,
    });
    expect(describeProviderFailure(failure, 0)).toContain('check the key in ACME_TOKEN');
  });

  it('is in the shell completions', () => {
    for (const shell of ['bash', 'zsh', 'fish'] as const) {
      const script = completionScript(shell, ['chat', 'set-provider']);
      expect(script).toMatch(/openai anthropic google bedrock acme deepseek openrouter/);
      expect(script).toContain('chat responses messages gemini converse wire');
    }
  });

  it('builds its client through the registry, with the credentials core resolved', async () => {
    const selection = resolveSelection({ provider: 'acme' });
    const credentials = await clientCredentials(selection, { ACME_TOKEN: 'tok-123' }, '/nonexistent');
    expect(credentials.apiKey).toBe('tok-123');
    const client = await createModelClient({
      api: 'acme-wire',
      model: 'acme-large-2',
      env: {},
      ...credentials,
    });
    expect(client.api).toBe('acme-wire');
    expect(built.at(-1)?.apiKey).toBe('tok-123');
    expect(modelFamily('acme-wire', 'acme-large-2')).toBe('acme-large');
  });

  it('refuses a second definition with a taken id or provider name', () => {
    expect(() => registerDefinition({ ...fifth })).toThrow(/already registered/);
    expect(() =>
      registerDefinition({
        ...fifth,
        api: 'acme-other',
        apiName: 'other',
        providers: [{ ...fifth.providers[0]!, defaultModel: 'x' }],
      }),
    ).toThrow(/provider acme is already registered/);
  });
});

describe('the registry and the contracts that name wire APIs', () => {
  it('every registered id fits the HTTP API WireApi schema, which names no fixed list', async () => {
    const { readFile } = await import('node:fs/promises');
    const openapi = JSON.parse(await readFile('src/server/openapi.json', 'utf8')) as {
      components: { schemas: { WireApi: { pattern: string; enum?: unknown } } };
    };
    const { WireApi } = openapi.components.schemas;
    expect(WireApi.enum).toBeUndefined();
    for (const api of wireApis()) expect(api).toMatch(new RegExp(WireApi.pattern));
  });

  it('every registered id fits the stream-json schema, which names no fixed list', async () => {
    const { readFile } = await import('node:fs/promises');
    const schema = JSON.parse(await readFile('schema/stream-json.schema.json', 'utf8')) as {
      definitions: { api: { pattern: string; enum?: unknown } };
    };
    expect(schema.definitions.api.enum).toBeUndefined();
    const pattern = new RegExp(schema.definitions.api.pattern);
    for (const api of wireApis()) expect(api).toMatch(pattern);
    expect('acme-wire').toMatch(pattern);
    expect('Not An Id').not.toMatch(pattern);
  });

  // The fifth definition above is still registered here; this one is added beside it.
  it('help names every provider, API and sign-in from the registry', async () => {
    const { apisHelp, loginProvidersHelp, providersHelp, signInsHelp } =
      await import('../../../src/cli/provider-help.js');
    const remove = registerDefinition({
      ...fifth,
      api: 'acme-help',
      apiName: 'helpwire',
      providers: [{ ...fifth.providers[0]!, name: 'acmehelp', signIn: { mode: 'acmesso' } }],
    });
    try {
      expect(providersHelp()).toBe(
        'openai, anthropic, google, bedrock, acme, acmehelp, deepseek, openrouter, ollama, lmstudio or vllm',
      );
      expect(loginProvidersHelp()).toBe('openai, anthropic, google, acme, acmehelp, deepseek or openrouter');
      expect(apisHelp()).toBe(
        'chat|responses (openai), messages (anthropic), gemini (google), converse (bedrock), wire (acme), helpwire (acmehelp), chat (presets)',
      );
      expect(signInsHelp()).toBe(
        'chatgpt (openai sign-in), claude (anthropic sign-in), acmesso (acmehelp sign-in) or key',
      );
    } finally {
      remove();
    }
  });
});
