/**
 * USD prices per million tokens for models whose list prices are published and stable enough to show a
 * turn's cost (each wire API definition's `prices`). Unknown models show no cost rather than a guess.
 */
import { priceEntries } from '../core/config.js';
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

export function formatCost(cost: number): string {
  return cost < 0.01 ? `$${cost.toFixed(4)}` : `$${cost.toFixed(2)}`;
}
