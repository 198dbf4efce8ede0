/**
 * What a model's tokens cost at list prices: USD per million tokens from each wire API definition's
 * `prices`, for models whose prices are published and stable enough to show. Unknown models have no cost
 * rather than a guess. Every front end shows the same figure (the terminal's status line, the events and
 * state over HTTP, the page's meter); formatting it is each front end's.
 */
import { priceEntries } from '../../providers/lookup.js';

export interface UsageTotals {
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
}

/** The cost in USD, or undefined when the model's price is not known. */
export function costOf(model: string, usage: UsageTotals): number | undefined {
  const price = priceEntries().find((entry) => entry.pattern.test(model));
  if (!price) return undefined;
  const cached = Math.min(usage.cachedInputTokens, usage.inputTokens);
  const fresh = usage.inputTokens - cached;
  return (
    (fresh * price.input + cached * (price.cachedInput ?? price.input) + usage.outputTokens * price.output) /
    1e6
  );
}

/** `{ costUsd }` for a reported usage when the model's price is known, else nothing (spread it). */
export function costField(
  model: string,
  usage: { inputTokens?: number; cachedInputTokens?: number; outputTokens?: number },
): { costUsd?: number } {
  const cost = costOf(model, {
    inputTokens: usage.inputTokens ?? 0,
    cachedInputTokens: usage.cachedInputTokens ?? 0,
    outputTokens: usage.outputTokens ?? 0,
  });
  return cost !== undefined ? { costUsd: cost } : {};
}
