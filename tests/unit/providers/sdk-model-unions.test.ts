/**
 * The catalogue against the models the pinned SDKs name: each union is read from the SDK's own .d.ts at
 * test time, so an SDK upgrade that names a model Cody does not know fails here until the catalogue
 * (window, output limit, reasoning, images, price) and the known ids learn it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { unknownModelWarning } from '../../../src/cli/known-models.js';
import {
  costOf,
  isKnownModel,
  lookupModelLimits,
  reasoningSupport,
} from '../../../src/core/selection/index.js';
import { claudeThinkingControl } from '../../../src/providers/anthropic-messages/claude-models.js';

/** The project's node_modules: the SDK versions package-lock.json pins. */
const NODE_MODULES = join(import.meta.dirname, '../../../node_modules');
const USAGE = { inputTokens: 1_000_000, cachedInputTokens: 0, outputTokens: 1_000_000 };

/** The string members of `declare type NAME = 'a' | 'b' | (string & {});` in a package's .d.ts. */
function unionOf(pkg: string, file: string, name: string): string[] {
  const text = readFileSync(join(NODE_MODULES, pkg, file), 'utf8');
  const start = text.search(new RegExp(`type ${name} = `));
  expect(start, `${name} in ${pkg}/${file}`).toBeGreaterThanOrEqual(0);
  const declaration = text.slice(start, text.indexOf(';', start));
  return [...declaration.matchAll(/['"]([^'"]+)['"]/g)].map((match) => match[1] ?? '');
}

const chatModels = unionOf('openai', 'resources/shared.d.ts', 'ChatModel');
const responsesModels = unionOf('openai', 'resources/shared.d.ts', 'ResponsesModel');
const claudeModels = unionOf('@anthropic-ai/sdk', 'resources/messages/messages.d.ts', 'Model');
// The Gemini SDK's union also names image, speech, music and robotics models: Cody's are the text ones.
const geminiModels = unionOf('@google/genai', 'dist/genai.d.ts', 'Model_2').filter(
  (id) => !/image|tts|lyria|robotics|nano-banana|omni/.test(id),
);

describe('the catalogue knows every model the pinned SDKs name', () => {
  it('reads non-trivial unions', () => {
    expect(chatModels).toContain('gpt-5.4');
    expect(claudeModels).toContain('claude-sonnet-5-5');
    expect(geminiModels).toContain('gemini-3.1-pro-preview');
  });

  it.each([...new Set([...chatModels, ...responsesModels])])('openai %s', (model) => {
    expect(isKnownModel(model)).toBe(true);
    expect(lookupModelLimits(model).source).toBe('catalog');
    expect(costOf(model, USAGE), 'price').toBeGreaterThan(0);
    expect(unknownModelWarning('openai', model, false)).toBeUndefined();
  });

  it.each(claudeModels)('anthropic %s, and its Bedrock id', (model) => {
    expect(unknownModelWarning('anthropic', model, false)).toBeUndefined();
    // Every current Claude model thinks and takes Cody's reasoning setting: a budget, or (Opus 4.7 and
    // later, the 5.x lines, Fable and Mythos, where a budget is a 400) adaptive thinking with its effort.
    const adaptive = /^claude-(opus-4-[78]|opus-5|sonnet-5|haiku-5|fable|mythos)/.test(model);
    expect(reasoningSupport(model)).toEqual({ reasons: true, effort: true });
    expect(claudeThinkingControl(model).kind).toBe(adaptive ? 'adaptive' : 'budget');
    const limits = lookupModelLimits(model);
    expect(limits.maxOutputTokens).toBeGreaterThanOrEqual(64_000);
    // Mythos Preview: no published price was found; no cost rather than a guess.
    if (model !== 'claude-mythos-preview') expect(costOf(model, USAGE), 'price').toBeGreaterThan(0);
    const bedrock = `us.anthropic.${model}-v1:0`;
    expect(lookupModelLimits(bedrock)).toEqual(limits);
    expect(reasoningSupport(bedrock)).toEqual({ reasons: true, effort: true });
    expect(claudeThinkingControl(bedrock)).toEqual(claudeThinkingControl(model));
    expect(costOf(bedrock, USAGE)).toBe(costOf(model, USAGE));
  });

  it.each(geminiModels)('google %s', (model) => {
    expect(unknownModelWarning('google', model, false)).toBeUndefined();
    expect(isKnownModel(model)).toBe(true);
    if (model.startsWith('gemini-')) {
      expect(reasoningSupport(model)).toEqual({ reasons: true, effort: true });
      expect(lookupModelLimits(model).maxOutputTokens).toBe(65_536);
    }
  });

  it.each(['deepseek-v4-pro', 'deepseek-flash', 'deepseek-v4-flash'])('deepseek %s', (model) => {
    expect(unknownModelWarning('deepseek', model, false)).toBeUndefined();
    expect(lookupModelLimits(model)).toMatchObject({ contextWindow: 1_000_000, source: 'catalog' });
    expect(costOf(model, USAGE)).toBeGreaterThan(0);
    expect(reasoningSupport(model)).toEqual({ reasons: true, effort: true });
  });
});
