import { describe, expect, it } from 'vitest';
import type { ResponseItem, TokenUsage } from '../../../../src/protocol/index.js';
import { countItemTokens, TokenAccountant, type TokenEstimator } from '../../../../src/core/tokens/index.js';

/** One token per character, counting how many items it was asked about. */
function countingEstimator(kind: TokenEstimator['kind'] = 'heuristic'): TokenEstimator & { calls: number } {
  const countText = (text: string): number => text.length;
  const estimator = {
    kind,
    calls: 0,
    countText,
    countItem: (item: ResponseItem): number => {
      estimator.calls += 1;
      return countItemTokens(item, countText);
    },
  };
  return estimator;
}

/** A user message of `length` characters: 4 + length tokens for the counting estimator. */
const message = (length: number): ResponseItem => ({
  type: 'message',
  role: 'user',
  content: [{ type: 'input_text', text: 'x'.repeat(length) }],
});

describe('TokenAccountant', () => {
  it('estimates every item when nothing has been reported', () => {
    const accountant = new TokenAccountant(countingEstimator());
    expect(accountant.estimateHistory([])).toBe(0);
    expect(accountant.estimateHistory([message(10), message(20)])).toBe(14 + 24);
    expect(accountant.hasReport).toBe(false);
  });

  it.each<[string, TokenUsage, number]>([
    ['input + output', { inputTokens: 1_000, outputTokens: 200, totalTokens: 9_999 }, 1_200],
    ['input only', { inputTokens: 1_000 }, 1_000],
    ['output only', { outputTokens: 50 }, 50],
    ['the total when that is all there is', { totalTokens: 700 }, 700],
  ])('takes %s of the last response as ground truth', (_name, usage, reported) => {
    const accountant = new TokenAccountant(countingEstimator());
    const history = [message(10), message(20)];
    accountant.recordUsage(usage, history.length);
    expect(accountant.estimateHistory(history)).toBe(reported);
    history.push(message(6));
    expect(accountant.estimateHistory(history)).toBe(reported + 10);
  });

  it('uses the last report, not a running total', () => {
    const accountant = new TokenAccountant(countingEstimator());
    const history = [message(1)];
    accountant.recordUsage({ inputTokens: 500, outputTokens: 100 }, 1);
    history.push(message(1), message(1));
    accountant.recordUsage({ inputTokens: 650, outputTokens: 50 }, 3);
    expect(accountant.estimateHistory(history)).toBe(700);
  });

  it('ignores a usage without counts and keeps the previous report', () => {
    const accountant = new TokenAccountant(countingEstimator());
    accountant.recordUsage({ inputTokens: 100, outputTokens: 1 }, 1);
    accountant.recordUsage({}, 2);
    expect(accountant.estimateHistory([message(1), message(2)])).toBe(101 + 6);
  });

  it('starts from a report given to the constructor (resume)', () => {
    const accountant = new TokenAccountant(countingEstimator(), {
      reportedTokens: 42_000,
      historyLengthAtReport: 2,
    });
    expect(accountant.estimateHistory([message(1), message(1), message(6)])).toBe(42_010);
    expect(accountant.hasReport).toBe(true);
  });

  it('estimates only the items added since the report, each item once', () => {
    const estimator = countingEstimator();
    const accountant = new TokenAccountant(estimator);
    const history = Array.from({ length: 1_000 }, () => message(50));
    accountant.recordUsage({ inputTokens: 200_000, outputTokens: 1_000 }, history.length);
    history.push(message(5));
    for (let round = 0; round < 10; round += 1) expect(accountant.estimateHistory(history)).toBe(201_009);
    expect(estimator.calls).toBe(1);
  });

  it('after reset estimates the whole history, reusing cached item estimates', () => {
    const estimator = countingEstimator();
    const accountant = new TokenAccountant(estimator);
    const history = [message(10), message(20)];
    accountant.estimateHistory(history);
    accountant.recordUsage({ inputTokens: 5_000, outputTokens: 10 }, 2);
    accountant.reset();
    expect(accountant.hasReport).toBe(false);
    expect(accountant.estimateHistory(history)).toBe(38);
    expect(estimator.calls).toBe(2);
  });

  it('falls back to a whole estimate when the history is shorter than at the report', () => {
    const accountant = new TokenAccountant(countingEstimator());
    accountant.recordUsage({ inputTokens: 90_000 }, 50);
    expect(accountant.estimateHistory([message(10)])).toBe(14);
  });

  it('drops cached estimates when the estimator changes', () => {
    const first = countingEstimator();
    const accountant = new TokenAccountant(first);
    const history = [message(10)];
    expect(accountant.estimateHistory(history)).toBe(14);
    const exact: TokenEstimator = {
      kind: 'o200k',
      countText: () => 1,
      countItem: () => 3,
    };
    accountant.setEstimator(exact);
    expect(accountant.estimator).toBe(exact);
    expect(accountant.estimateHistory(history)).toBe(3);
  });
});
