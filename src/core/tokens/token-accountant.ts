/**
 * How many tokens the live history occupies. Ground truth is what the provider last reported — that
 * response's input + output tokens, not a running total — and only the items added since are
 * estimated, each once: estimates are cached per item object, so re-estimating after every new item
 * costs one item, not the whole history.
 */
import type { ResponseItem, TokenUsage } from '../../protocol/index.js';
import type { TokenEstimator } from './token-estimator.js';

/** A provider report and where in the history it was taken. */
export interface ReportedTokens {
  /** Input + output tokens of the last response. */
  reportedTokens: number;
  /** History length right after that response's items were recorded. */
  historyLengthAtReport: number;
}

/** Incremental token count of one conversation's history. */
export class TokenAccountant {
  private currentEstimator: TokenEstimator;
  private cache = new WeakMap<ResponseItem, number>();
  private report: ReportedTokens | undefined;

  constructor(estimator: TokenEstimator, initial?: ReportedTokens) {
    this.currentEstimator = estimator;
    this.report = initial;
  }

  /** The estimator counting items added since the last report. */
  get estimator(): TokenEstimator {
    return this.currentEstimator;
  }

  /** Whether a provider report underlies the figure (it then includes instructions and tool specs). */
  get hasReport(): boolean {
    return this.report !== undefined;
  }

  /** Upgrades (or changes) the estimator, e.g. to the exact tokenizer near the limit; drops the cache. */
  setEstimator(estimator: TokenEstimator): void {
    this.currentEstimator = estimator;
    this.cache = new WeakMap();
  }

  /**
   * Takes a response's usage as the new ground truth: input + output tokens (or the total when only
   * that is known). A usage with no counts at all is ignored and the previous report stays.
   */
  recordUsage(usage: TokenUsage, historyLengthAtReport: number): void {
    const { inputTokens, outputTokens, totalTokens } = usage;
    const reported =
      inputTokens !== undefined || outputTokens !== undefined
        ? (inputTokens ?? 0) + (outputTokens ?? 0)
        : totalTokens;
    if (reported === undefined) return;
    this.report = { reportedTokens: reported, historyLengthAtReport };
  }

  /** Forgets the report (after a compaction the history it described is gone); the cache stays. */
  reset(): void {
    this.report = undefined;
  }

  /**
   * Tokens of `history`: the last report plus estimates of `history.slice(historyLengthAtReport)`, or
   * the estimate of every item when there is no report (or the history is shorter than at the report,
   * so the report cannot describe it).
   */
  estimateHistory(history: readonly ResponseItem[]): number {
    const report = this.report;
    const covered = report !== undefined && report.historyLengthAtReport <= history.length;
    let total = covered ? report.reportedTokens : 0;
    for (let index = covered ? report.historyLengthAtReport : 0; index < history.length; index += 1) {
      const item = history[index];
      if (item !== undefined) total += this.estimateItem(item);
    }
    return total;
  }

  /** One item's estimate, computed once per item object. */
  estimateItem(item: ResponseItem): number {
    let tokens = this.cache.get(item);
    if (tokens === undefined) {
      tokens = this.currentEstimator.countItem(item);
      this.cache.set(item, tokens);
    }
    return tokens;
  }
}
