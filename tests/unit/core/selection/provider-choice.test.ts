import { describe, expect, it } from 'vitest';
import { resolveSelection } from '../../../../src/core/config/config.js';
import { UsageError } from '../../../../src/core/errors.js';
import { lookupModelLimits } from '../../../../src/core/selection/model-catalog.js';
import { applyProviderChoice } from '../../../../src/core/selection/provider-choice.js';

describe('applyProviderChoice', () => {
  it('defaults to OpenAI Chat Completions', () => {
    expect(resolveSelection({})).toEqual({
      provider: 'openai',
      apiName: 'chat',
      api: 'openai-chat',
      model: 'gpt-5.4',
    });
  });

  it.each([
    [
      { provider: 'anthropic' },
      { provider: 'anthropic', apiName: 'messages', api: 'anthropic-messages', model: 'claude-sonnet-5-5' },
    ],
    [
      { provider: 'google' },
      { provider: 'google', apiName: 'gemini', api: 'gemini', model: 'gemini-3.1-pro-preview' },
    ],
    [
      { provider: 'openai', api: 'responses', model: 'gpt-5' },
      { provider: 'openai', apiName: 'responses', api: 'openai-responses', model: 'gpt-5' },
    ],
    [
      { provider: 'OpenAI', model: 'llama3.1:8b', baseUrl: 'http://localhost:11434/v1/' },
      {
        provider: 'openai',
        apiName: 'chat',
        api: 'openai-chat',
        model: 'llama3.1:8b',
        baseUrl: 'http://localhost:11434/v1',
      },
    ],
  ])('accepts %j', (choice, expected) => {
    expect(resolveSelection(applyProviderChoice({}, choice))).toEqual(expected);
  });

  it('switching provider drops a model and API that belong to the old one', () => {
    const openai = applyProviderChoice({}, { provider: 'openai', api: 'responses', model: 'gpt-5' });
    const anthropic = applyProviderChoice(openai, { provider: 'anthropic' });
    expect(resolveSelection(anthropic)).toMatchObject({
      api: 'anthropic-messages',
      model: 'claude-sonnet-5-5',
    });
  });

  it('keeps base URLs per provider and clears one with an empty string', () => {
    const local = applyProviderChoice({}, { provider: 'openai', baseUrl: 'http://127.0.0.1:8000/v1' });
    const claude = applyProviderChoice(local, { provider: 'anthropic' });
    expect(resolveSelection(claude).baseUrl).toBeUndefined();
    expect(claude.baseUrls).toEqual({ openai: 'http://127.0.0.1:8000/v1' });
    expect(applyProviderChoice(claude, { provider: 'openai', baseUrl: '' }).baseUrls).toBeUndefined();
  });

  it.each([
    [{ provider: 'mistral' }, /Unknown provider 'mistral'. Choose one of: openai, anthropic, google/],
    [{ provider: 'openai', api: 'messages' }, /has no API 'messages'. Choose one of: chat, responses/],
    [{ provider: 'anthropic', model: 'gpt-4o' }, /'gpt-4o' belongs to openai, not anthropic/],
    [{ provider: 'google', model: 'bad model' }, /not a valid model id/],
    [{ provider: 'openai', baseUrl: 'ftp://example' }, /http or https/],
    [{ provider: 'openai', baseUrl: 'not a url' }, /not a valid base URL/],
    [{ provider: 'google', auth: 'chatgpt' }, /--auth chatgpt signs in to openai, not google/],
    [{ provider: 'openai', auth: 'claude' }, /--auth claude signs in to anthropic, not openai/],
    [{ provider: 'openai', auth: 'github' }, /Unknown --auth 'github'/],
    [{ provider: 'openai', auth: 'chatgpt', api: 'chat' }, /only with the Responses API/],
    [{ provider: 'ollama', api: 'responses' }, /Provider 'ollama' has no API 'responses'/],
  ])('rejects %j', (choice, message) => {
    expect(() => applyProviderChoice({}, choice)).toThrow(UsageError);
    expect(() => applyProviderChoice({}, choice)).toThrow(message);
  });
});

describe('sign-ins and presets', () => {
  it('--auth chatgpt selects the Responses API, a Codex model and drops an earlier base URL', () => {
    const before = {
      provider: 'openai' as const,
      api: 'chat',
      model: 'llama3.1:8b',
      baseUrls: { openai: 'http://localhost:11434/v1' },
    };
    const config = applyProviderChoice(before, { provider: 'openai', auth: 'chatgpt' });
    expect(config).toEqual({
      provider: 'openai',
      api: 'responses',
      model: 'gpt-5.1-codex',
      auth: { openai: 'chatgpt' },
    });
    expect(resolveSelection(config)).toMatchObject({ api: 'openai-responses', auth: 'chatgpt' });
    const back = applyProviderChoice(config, { provider: 'openai', auth: 'key', api: 'chat' });
    expect(back.auth).toBeUndefined();
    expect(resolveSelection(back).auth).toBeUndefined();
  });

  it('--auth claude is kept per provider and survives switching away and back', () => {
    const claude = applyProviderChoice({}, { provider: 'anthropic', auth: 'claude' });
    const google = applyProviderChoice(claude, { provider: 'google' });
    expect(resolveSelection(google).auth).toBeUndefined();
    expect(resolveSelection(applyProviderChoice(google, { provider: 'anthropic' })).auth).toBe('claude');
  });

  it.each([
    ['openrouter', 'anthropic/claude-sonnet-4.5'],
    ['ollama', 'llama3.1:8b'],
    ['lmstudio', 'qwen2.5-7b-instruct'],
    ['vllm', 'Qwen/Qwen2.5-7B-Instruct'],
  ])('%s is a Chat Completions preset with default model %s', (provider, model) => {
    const selection = resolveSelection(applyProviderChoice({}, { provider }));
    expect(selection).toMatchObject({ provider, apiName: 'chat', api: 'openai-chat', model });
  });

  it('lets a preset serve models named after another vendor', () => {
    expect(applyProviderChoice({}, { provider: 'ollama', model: 'gpt-oss:20b' }).model).toBe('gpt-oss:20b');
  });
});

describe('lookupModelLimits', () => {
  it.each([
    ['gpt-5', 400_000],
    ['gpt-5.1-codex', 400_000],
    ['gpt-4.1-mini', 1_047_576],
    ['gpt-4o-2024-08-06', 128_000],
    ['o4-mini', 200_000],
    ['claude-sonnet-4-5-20250929', 200_000],
    ['claude-haiku-4-5', 200_000],
    ['gemini-2.5-pro', 1_048_576],
    ['gemini-3-pro-preview', 1_048_576],
    ['llama3.1:8b', 131_072],
    ['meta-llama/Llama-3.1-8B-Instruct', 131_072],
    ['meta-llama-3.1-8b-instruct', 131_072],
    ['llama3:8b', 8_192],
    ['qwen2.5-coder:7b', 32_768],
    ['Qwen/Qwen2.5-7B-Instruct', 32_768],
    ['qwen3:8b', 40_960],
    ['gpt-oss:20b', 131_072],
    ['openai/gpt-oss-120b', 131_072],
    ['gemma3:12b', 131_072],
    ['mistral:7b', 32_768],
    ['mistral-nemo:12b', 131_072],
    ['deepseek-r1:8b', 131_072],
    ['phi4:14b', 16_384],
    ['anthropic/claude-sonnet-4.5', 200_000],
    ['openai/gpt-4o', 128_000],
  ])('knows %s', (model, window) => {
    expect(lookupModelLimits(model)).toMatchObject({ contextWindow: window, source: 'catalog' });
  });

  it('gives unknown models a conservative default and honours config overrides', () => {
    expect(lookupModelLimits('my-finetune:8b')).toEqual({
      contextWindow: 8_192,
      maxOutputTokens: 2_048,
      source: 'default',
    });
    expect(
      lookupModelLimits('my-finetune:8b', { models: { 'my-finetune:8b': { contextWindow: 4_000 } } }),
    ).toEqual({
      contextWindow: 4_000,
      maxOutputTokens: 2_048,
      source: 'config',
    });
    expect(
      lookupModelLimits('gpt-4o', { models: { 'gpt-4o': { contextWindow: 1_000 } } }).maxOutputTokens,
    ).toBe(1_000);
  });
});
