/**
 * Cody's reasoning level → Gemini's `thinkingConfig`: a token budget (`thinkingBudget`) for the 2.5
 * models, a level (`thinkingLevel`) for Gemini 3, and `includeThoughts: true` so thought summaries stream.
 */
import { type ThinkingConfig, ThinkingLevel } from '@google/genai';
import type { ReasoningLevel } from '../../protocol/index.js';
import { GEMINI_LEVEL_THINKING } from './gemini-models.js';

/** Budgets per level for the 2.5 models (Flash takes 0–24,576; Pro 128–32,768 and cannot turn thinking off). */
export const GEMINI_THINKING_BUDGETS: Readonly<Record<Exclude<ReasoningLevel, 'off'>, number>> = {
  minimal: 512,
  low: 1_024,
  medium: 8_192,
  high: 24_576,
};

/**
 * The thinking config for `level` on `model`; undefined where the level cannot be expressed (`off` on a
 * model that always thinks: 2.5 Pro, Gemini 3 Pro), so the model's default applies.
 */
export function geminiThinkingConfig(level: ReasoningLevel, model: string): ThinkingConfig | undefined {
  const bare = model.toLowerCase().replace(/^models\//, '');
  const pro = /-pro|^gemini-pro-/.test(bare);
  if (GEMINI_LEVEL_THINKING.test(bare)) {
    const thinkingLevel = gemini3Level(level, pro);
    return thinkingLevel === undefined ? undefined : { thinkingLevel, includeThoughts: level !== 'off' };
  }
  if (level === 'off') return pro ? undefined : { thinkingBudget: 0 };
  return { thinkingBudget: GEMINI_THINKING_BUDGETS[level], includeThoughts: true };
}

/**
 * Gemini 3 Pro takes `low` and `high`; Gemini 3 Flash also `minimal` and `medium`. Neither turns thinking
 * off: `off` is Flash's `minimal`, and nothing on Pro.
 */
function gemini3Level(level: ReasoningLevel, pro: boolean): ThinkingLevel | undefined {
  switch (level) {
    case 'off':
      return pro ? undefined : ThinkingLevel.MINIMAL;
    case 'minimal':
      return pro ? ThinkingLevel.LOW : ThinkingLevel.MINIMAL;
    case 'low':
      return ThinkingLevel.LOW;
    case 'medium':
      return pro ? ThinkingLevel.HIGH : ThinkingLevel.MEDIUM;
    case 'high':
      return ThinkingLevel.HIGH;
    default: {
      const exhaustive: never = level;
      throw new Error(`unknown reasoning level ${String(exhaustive)}`);
    }
  }
}
