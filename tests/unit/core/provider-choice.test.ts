import { describe, expect, it } from 'vitest';
import { resolveSelection } from '../../../src/core/config.js';
import { UsageError } from '../../../src/core/errors.js';
import { lookupModelLimits } from '../../../src/core/model-catalog.js';
import { applyProviderChoice } from '../../../src/core/provider-choice.js';

describe('applyProviderChoice', () => {
  it('defaults to OpenAI Chat Completions', () => {
    expect(resolveSelection({})).toEqual({
      provider: 'openai',
      apiName: 'chat',
      api: 'openai-chat',
      model: 'gpt-4.1-mini',
    });
  });

  it.each([
    [
      { provider: 'anthropic' },
      { provider: 'anthropic', apiName: 'messages', api: 'anthropic-messages', model: 'claude-sonnet-4-6' },
    ],
    [
      { provider: 'google' },
      { provider: 'google', apiName: 'gemini', api: 'gemini', model: 'gemini-2.5-flash' },
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
      model: 'claude-sonnet-4-6',
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
  ])('rejects %j', (choice, message) => {
    expect(() => applyProviderChoice({}, choice)).toThrow(UsageError);
    expect(() => applyProviderChoice({}, choice)).toThrow(message);
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
    ['openai/gpt-4o', 128_000],
  ])('knows %s', (model, window) => {
    expect(lookupModelLimits(model)).toMatchObject({ contextWindow: window, source: 'catalog' });
  });

  it('gives unknown models a conservative default and honours config overrides', () => {
    expect(lookupModelLimits('llama3.1:8b')).toEqual({
      contextWindow: 8_192,
      maxOutputTokens: 2_048,
      source: 'default',
    });
    expect(lookupModelLimits('llama3.1:8b', { models: { 'llama3.1:8b': { contextWindow: 4_000 } } })).toEqual(
      {
        contextWindow: 4_000,
        maxOutputTokens: 2_048,
        source: 'config',
      },
    );
    expect(
      lookupModelLimits('gpt-4o', { models: { 'gpt-4o': { contextWindow: 1_000 } } }).maxOutputTokens,
    ).toBe(1_000);
  });
});
