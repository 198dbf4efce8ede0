/**
 * USD prices per million tokens for models whose list prices are published and stable enough to show a
 * turn's cost. Unknown models show no cost rather than a guess.
 */
interface Price {
  input: number;
  cachedInput?: number;
  output: number;
}

const PRICES: ReadonlyArray<[RegExp, Price]> = [
  [/^gpt-4\.1-nano/, { input: 0.1, cachedInput: 0.025, output: 0.4 }],
  [/^gpt-4\.1-mini/, { input: 0.4, cachedInput: 0.1, output: 1.6 }],
  [/^gpt-4\.1/, { input: 2, cachedInput: 0.5, output: 8 }],
  [/^gpt-4o-mini/, { input: 0.15, cachedInput: 0.075, output: 0.6 }],
  [/^gpt-4o/, { input: 2.5, cachedInput: 1.25, output: 10 }],
  [/^o4-mini/, { input: 1.1, cachedInput: 0.275, output: 4.4 }],
  [/^claude-opus-4/, { input: 15, cachedInput: 1.5, output: 75 }],
  [/^claude-sonnet-4/, { input: 3, cachedInput: 0.3, output: 15 }],
  [/^claude-3-5-haiku/, { input: 0.8, cachedInput: 0.08, output: 4 }],
  [/^claude-haiku-4/, { input: 1, cachedInput: 0.1, output: 5 }],
  [/^gemini-2\.5-pro/, { input: 1.25, cachedInput: 0.31, output: 10 }],
  [/^gemini-2\.5-flash-lite/, { input: 0.1, cachedInput: 0.025, output: 0.4 }],
  [/^gemini-2\.5-flash/, { input: 0.3, cachedInput: 0.075, output: 2.5 }],
];

export interface UsageTotals {
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
}

/** The cost in USD, or undefined when the model's price is not known. */
export function costOf(model: string, usage: UsageTotals): number | undefined {
  const price = PRICES.find(([pattern]) => pattern.test(model))?.[1];
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
