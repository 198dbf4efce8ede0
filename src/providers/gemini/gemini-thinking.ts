/**
 * Cody's reasoning level → Gemini's `thinkingConfig`: a token budget (`thinkingBudget`) for the 2.5
 * models, a level (`thinkingLevel`) for Gemini 3 and later, the nearest the model takes (the catalogue's
 * per-model levels, gemini-models.ts), and `includeThoughts: true` so thought summaries stream.
 */
import { type ThinkingConfig, ThinkingLevel } from '@google/genai';
import type { ReasoningLevel } from '../../protocol/index.js';
import { GEMINI_LEVEL_THINKING, type GeminiThinkingLevel, geminiThinkingLevels } from './gemini-models.js';

/** Budgets per level for the 2.5 models (Flash takes 0–24,576; Pro 128–32,768 and cannot turn thinking off). */
export const GEMINI_THINKING_BUDGETS: Readonly<Record<Exclude<ReasoningLevel, 'off'>, number>> = {
  minimal: 512,
  low: 1_024,
  medium: 8_192,
  high: 24_576,
};

/**
 * The thinking config for `level` on `model`; undefined where the level cannot be expressed (`off` on 2.5
 * Pro, which always thinks), so the model's default applies.
 */
export function geminiThinkingConfig(level: ReasoningLevel, model: string): ThinkingConfig | undefined {
  const bare = model.toLowerCase().replace(/^models\//, '');
  if (GEMINI_LEVEL_THINKING.test(bare)) {
    const thinkingLevel = nearestLevel(level, geminiThinkingLevels(bare));
    return { thinkingLevel: WIRE_LEVELS[thinkingLevel], includeThoughts: level !== 'off' };
  }
  const pro = /-pro|^gemini-pro-/.test(bare);
  if (level === 'off') return pro ? undefined : { thinkingBudget: 0 };
  return { thinkingBudget: GEMINI_THINKING_BUDGETS[level], includeThoughts: true };
}

const ORDER: readonly GeminiThinkingLevel[] = ['minimal', 'low', 'medium', 'high'];

const WIRE_LEVELS: Readonly<Record<GeminiThinkingLevel, ThinkingLevel>> = {
  minimal: ThinkingLevel.MINIMAL,
  low: ThinkingLevel.LOW,
  medium: ThinkingLevel.MEDIUM,
  high: ThinkingLevel.HIGH,
};

/**
 * The level the model takes nearest `level`: itself when taken, else the next one up (minimal → low on a
 * model without minimal, medium → high on Gemini 3 Pro), else the highest. No Gemini 3 model turns
 * thinking off: `off` is its lowest level, without thought summaries.
 */
export function nearestLevel(
  level: ReasoningLevel,
  allowed: readonly GeminiThinkingLevel[],
): GeminiThinkingLevel {
  const lowest = ORDER.find((candidate) => allowed.includes(candidate)) ?? 'low';
  if (level === 'off') return lowest;
  const wanted = ORDER.indexOf(level);
  return (
    ORDER.find((candidate, index) => index >= wanted && allowed.includes(candidate)) ??
    allowed.at(-1) ??
    lowest
  );
}
