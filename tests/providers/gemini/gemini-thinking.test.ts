/**
 * Gemini's thinking level per model: each of Cody's levels becomes the nearest `thinkingLevel` the model
 * takes (the catalogue's per-model levels), and no known model at any level gets a config the fake (which
 * refuses what Gemini refuses) would answer 400.
 */
import { describe, expect, it } from 'vitest';
import { REASONING_LEVELS } from '../../../src/protocol/index.js';
import { GEMINI_KNOWN_MODELS } from '../../../src/providers/gemini/gemini-models.js';
import { geminiThinkingConfig } from '../../../src/providers/gemini/gemini-thinking.js';
import { geminiThinkingProblem } from '../../fake-provider/reasoning-rules.js';

/** The thinkingLevel sent at off, minimal, low, medium, high. */
function levels(model: string): unknown[] {
  return REASONING_LEVELS.map((level) => geminiThinkingConfig(level, model)?.thinkingLevel);
}

describe('geminiThinkingConfig: the nearest level each model takes', () => {
  it.each([
    // Gemini 3 Pro: low and high; medium goes up, off and minimal to low.
    ['gemini-3-pro-preview', ['LOW', 'LOW', 'LOW', 'HIGH', 'HIGH']],
    // 3.1 Pro takes medium now.
    ['gemini-3.1-pro-preview', ['LOW', 'LOW', 'LOW', 'MEDIUM', 'HIGH']],
    ['gemini-3.1-pro-preview-customtools', ['LOW', 'LOW', 'LOW', 'MEDIUM', 'HIGH']],
    // Flash up to 3.6 and Flash-Lite: all four.
    ['gemini-3-flash-preview', ['MINIMAL', 'MINIMAL', 'LOW', 'MEDIUM', 'HIGH']],
    ['gemini-3.5-flash', ['MINIMAL', 'MINIMAL', 'LOW', 'MEDIUM', 'HIGH']],
    ['gemini-3.1-flash-lite', ['MINIMAL', 'MINIMAL', 'LOW', 'MEDIUM', 'HIGH']],
    // 3.7 Flash and later and 4 Argon: no minimal, so minimal (and off) is low.
    ['gemini-3.7-flash', ['LOW', 'LOW', 'LOW', 'MEDIUM', 'HIGH']],
    ['gemini-3.8-flash', ['LOW', 'LOW', 'LOW', 'MEDIUM', 'HIGH']],
    ['gemini-4-argon', ['LOW', 'LOW', 'LOW', 'MEDIUM', 'HIGH']],
    ['models/gemini-4-argon', ['LOW', 'LOW', 'LOW', 'MEDIUM', 'HIGH']],
    // The Pro alias may name 3 Pro or 3.1 Pro: only what both take.
    ['gemini-pro-latest', ['LOW', 'LOW', 'LOW', 'HIGH', 'HIGH']],
  ])('%s', (model, expected) => {
    expect(levels(model)).toEqual(expected);
  });

  it('shows thoughts except at off; the 2.5 models keep their budgets', () => {
    expect(geminiThinkingConfig('off', 'gemini-3.7-flash')).toEqual({
      thinkingLevel: 'LOW',
      includeThoughts: false,
    });
    expect(geminiThinkingConfig('minimal', 'gemini-3.7-flash')).toEqual({
      thinkingLevel: 'LOW',
      includeThoughts: true,
    });
    expect(geminiThinkingConfig('medium', 'gemini-2.5-flash')).toEqual({
      thinkingBudget: 8192,
      includeThoughts: true,
    });
    expect(geminiThinkingConfig('off', 'gemini-2.5-pro')).toBeUndefined();
  });

  it.each(
    GEMINI_KNOWN_MODELS.filter((model) => /^gemini-(2\.5|[3-9]|(pro|flash|flash-lite)-latest)/.test(model)),
  )('%s: every level is one the model takes', (model) => {
    for (const level of REASONING_LEVELS) {
      const thinkingConfig = geminiThinkingConfig(level, model);
      const config = thinkingConfig ? { thinkingConfig: { ...thinkingConfig } } : undefined;
      expect(geminiThinkingProblem(model, config), `${model} at ${level}`).toBeUndefined();
    }
  });
});
