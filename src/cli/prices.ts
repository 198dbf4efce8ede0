/** How the terminal writes a cost in USD (core's `costOf` computes it). */
export function formatCost(cost: number): string {
  return cost < 0.01 ? `$${cost.toFixed(4)}` : `$${cost.toFixed(2)}`;
}
