/**
 * The page's meter adds each finished turn's `costUsd` to its total, and shows no total once a turn
 * reported usage without a cost (a model with no known price): a partial sum would understate it.
 */
import { describe, expect, it } from 'vitest';
import {
  addTurnCost,
  countRequest,
  formatCost,
  NO_USAGE,
  type MeterCost,
} from '../../../src/web/meter-cost.js';
import { formatCost as terminalFormatCost } from '../../../src/cli/prices.js';

describe('the meter’s cost', () => {
  it('sums the priced turns the page saw finish', () => {
    let totals: MeterCost = {};
    totals = addTurnCost(totals, 0.0006);
    totals = addTurnCost(totals, 0.0012);
    expect(totals.cost).toBeCloseTo(0.0018, 12);
  });

  it('has no total once a turn with usage had no price, even if later turns have one', () => {
    let totals = addTurnCost({}, 0.5);
    totals = addTurnCost(totals, undefined);
    expect(totals).toEqual({ unpriced: true });
    totals = addTurnCost(totals, 0.5);
    expect(totals.cost).toBe(undefined);
  });

  it('writes a cost as the terminal does', () => {
    for (const cost of [0.00123, 0.0099, 0.01, 0.126, 12.5])
      expect(formatCost(cost)).toBe(terminalFormatCost(cost));
    expect(formatCost(0.0012)).toBe('$0.0012');
    expect(formatCost(0.12)).toBe('$0.12');
  });

  it('counts every model request of a turn (its usage events), not only the last one', () => {
    const first = { inputTokens: 1000, cachedInputTokens: 0, outputTokens: 100 };
    const second = { inputTokens: 1500, cachedInputTokens: 500, outputTokens: 50 };
    let state: { usage: typeof NO_USAGE; cost?: MeterCost } = { usage: NO_USAGE };
    state = countRequest(state, first, 0.002);
    state = countRequest(state, second, 0.003);
    expect(state.usage).toEqual({ inputTokens: 2500, cachedInputTokens: 500, outputTokens: 150 });
    expect(state.cost?.cost).toBeCloseTo(0.005, 12);
  });
});
