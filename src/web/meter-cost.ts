/**
 * The cost the page's meter shows: the sum of each model request's `costUsd` (the `usage` events; core
 * prices the usage, the page only adds and writes it). Once a request reported usage without a cost (a
 * model with no known price) there is no total: a partial sum would understate it.
 */
export interface MeterCost {
  /** USD; absent until a priced turn finishes, and once `unpriced`. */
  cost?: number;
  unpriced?: true;
}

export interface UsageTotals {
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
}

export const NO_USAGE: UsageTotals = { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0 };

/** Totals after one more request's `usage` (unknown counts add nothing). */
export function addUsage(
  totals: UsageTotals,
  usage: { inputTokens?: number; cachedInputTokens?: number; outputTokens?: number },
): UsageTotals {
  return {
    inputTokens: totals.inputTokens + (usage.inputTokens ?? 0),
    cachedInputTokens: totals.cachedInputTokens + (usage.cachedInputTokens ?? 0),
    outputTokens: totals.outputTokens + (usage.outputTokens ?? 0),
  };
}

/**
 * The meter's tokens and cost after one `usage` event: one per model request, and a turn with tool
 * calls makes several, each paid for (the terminal sums them the same way). `turn-complete` repeats only
 * the last one, so it is not counted.
 */
export function countRequest(
  totals: { usage: UsageTotals; cost?: MeterCost },
  usage: Parameters<typeof addUsage>[1],
  costUsd: number | undefined,
): { usage: UsageTotals; cost: MeterCost } {
  return { usage: addUsage(totals.usage, usage), cost: addTurnCost(totals.cost ?? {}, costUsd) };
}

/** The totals after one more turn that reported usage, with its cost when priced. */
export function addTurnCost(totals: MeterCost, costUsd: number | undefined): MeterCost {
  if (totals.unpriced || costUsd === undefined) return { unpriced: true };
  return { cost: (totals.cost ?? 0) + costUsd };
}

/** As the terminal writes a cost: `$0.0012` under a cent, else `$0.12`. */
export function formatCost(cost: number): string {
  return cost < 0.01 ? `$${cost.toFixed(4)}` : `$${cost.toFixed(2)}`;
}
