import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { countTokens as countCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import type { WireApi } from '../../../../src/protocol/index.js';
import { createTokenEstimator, encodingFor, type ExactEncoding } from '../../../../src/core/tokens/index.js';

describe('encodingFor', () => {
  it.each<[WireApi, string, ExactEncoding | undefined]>([
    ['openai-responses', 'gpt-4o', 'o200k'],
    ['openai-chat', 'gpt-4o-mini', 'o200k'],
    ['openai-chat', 'gpt-4.1-mini', 'o200k'],
    ['openai-responses', 'gpt-5', 'o200k'],
    ['openai-responses', 'gpt-5.1-codex', 'o200k'],
    ['openai-responses', 'o3', 'o200k'],
    ['openai-responses', 'o4-mini', 'o200k'],
    ['openai-chat', 'chatgpt-4o-latest', 'o200k'],
    ['openai-chat', 'gpt-oss-120b', 'o200k'],
    ['openai-chat', 'openai/gpt-4o', 'o200k'],
    ['openai-chat', 'ft:gpt-4o-mini:acme::abc123', 'o200k'],
    ['openai-chat', 'GPT-4o', 'o200k'],
    ['openai-chat', 'gpt-4', 'cl100k'],
    ['openai-chat', 'gpt-4-turbo', 'cl100k'],
    ['openai-chat', 'gpt-3.5-turbo', 'cl100k'],
    ['openai-chat', 'llama3.1:8b', undefined],
    ['openai-chat', 'qwen2.5-coder', undefined],
    ['anthropic-messages', 'claude-sonnet-4-5', undefined],
    ['gemini', 'gemini-2.5-flash', undefined],
    ['anthropic-messages', 'gpt-4o', undefined],
  ])('%s %s → %s', (api, model, expected) => {
    expect(encodingFor(api, model)).toBe(expected);
  });
});

describe('createTokenEstimator', () => {
  const text = 'The quick brown fox jumps over the lazy dog; {"path": "src/index.ts"}';

  it('is the heuristic unless exact counts are asked for', async () => {
    const estimator = await createTokenEstimator({ api: 'openai-chat', model: 'gpt-4o', exact: false });
    expect(estimator.kind).toBe('heuristic');
  });

  it.each<[WireApi, string]>([
    ['anthropic-messages', 'claude-sonnet-4-5'],
    ['gemini', 'gemini-2.5-pro'],
    ['openai-chat', 'llama3.1:8b'],
  ])('is the heuristic for %s %s even when exact is asked for', async (api, model) => {
    expect((await createTokenEstimator({ api, model, exact: true })).kind).toBe('heuristic');
  });

  it('counts exactly with o200k for GPT-4o-class models', async () => {
    const estimator = await createTokenEstimator({ api: 'openai-responses', model: 'gpt-4.1', exact: true });
    expect(estimator.kind).toBe('o200k');
    expect(estimator.countText(text)).toBe(countO200k(text));
    expect(estimator.countText('')).toBe(0);
  });

  it('counts exactly with cl100k for GPT-4 and GPT-3.5', async () => {
    const estimator = await createTokenEstimator({ api: 'openai-chat', model: 'gpt-3.5-turbo', exact: true });
    expect(estimator.kind).toBe('cl100k');
    expect(estimator.countText(text)).toBe(countCl100k(text));
  });

  it('counts special-token strings in user text as plain text instead of throwing', async () => {
    const estimator = await createTokenEstimator({ api: 'openai-chat', model: 'gpt-4o', exact: true });
    expect(estimator.countText('what does <|endoftext|> mean?')).toBeGreaterThan(5);
    expect(
      estimator.countItem({
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: '<|im_start|>system' }],
      }),
    ).toBeGreaterThan(4);
  });

  it('never imports the tokenizer at module load (only inside createTokenEstimator)', () => {
    const source = readFileSync(
      join(import.meta.dirname, '..', '..', '..', '..', 'src', 'core', 'tokens', 'create-token-estimator.ts'),
      'utf8',
    );
    expect(source).not.toMatch(/^import[^;]*gpt-tokenizer/m);
    expect(source).toMatch(/await import\('gpt-tokenizer\/encoding\/o200k_base'\)/);
  });
});
