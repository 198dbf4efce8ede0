/**
 * The cost the page's meter shows: the sum of each finished turn's `costUsd` (core prices the usage; the
 * page only adds and writes it). Once a turn reported usage without a cost (a model with no known price)
 * there is no total: a partial sum would understate it.
 */
export interface MeterCost {
  /** USD; absent until a priced turn finishes, and once `unpriced`. */
  cost?: number;
  unpriced?: true;
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
