/**
 * How many tokens the live history occupies. Ground truth is what the provider last reported (that
 * response's input + output tokens); only items added since are estimated, each once (cached per item).
 */
import type { ResponseItem, TokenUsage } from '../../protocol/index.js';
import type { TokenEstimator } from './estimator.js';

export interface ReportedTokens {
  /** Input + output tokens of the last response. */
  reportedTokens: number;
  /** History length when that response was recorded (its items included). */
  historyLengthAtReport: number;
}

export class TokenAccountant {
  private estimatorInUse: TokenEstimator;
  private cache = new WeakMap<ResponseItem, number>();
  private report: ReportedTokens | undefined;

  constructor(estimator: TokenEstimator, initial?: ReportedTokens) {
    this.estimatorInUse = estimator;
    this.report = initial;
  }

  get estimator(): TokenEstimator {
    return this.estimatorInUse;
  }

  /** Whether a provider-reported figure underlies the estimate. */
  get hasReport(): boolean {
    return this.report !== undefined;
  }

  /** Switches to another estimator (e.g. the exact tokenizer near the limit); cached estimates are dropped. */
  setEstimator(estimator: TokenEstimator): void {
    this.estimatorInUse = estimator;
    this.cache = new WeakMap();
  }

  recordUsage(usage: TokenUsage, historyLengthAtReport: number): void {
    const reported =
      usage.inputTokens !== undefined || usage.outputTokens !== undefined
        ? (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0)
        : usage.totalTokens;
    if (reported === undefined) return;
    this.report = { reportedTokens: reported, historyLengthAtReport };
  }

  /** After a compaction the old report no longer describes the history. */
  reset(): void {
    this.report = undefined;
  }

  estimateHistory(history: readonly ResponseItem[]): number {
    const report = this.report;
    const from = report && report.historyLengthAtReport <= history.length ? report.historyLengthAtReport : 0;
    let total = report && from > 0 ? report.reportedTokens : 0;
    for (let index = from; index < history.length; index += 1) {
      const item = history[index];
      if (item) total += this.estimateItem(item);
    }
    return total;
  }

  estimateItem(item: ResponseItem): number {
    let cached = this.cache.get(item);
    if (cached === undefined) {
      cached = this.estimatorInUse.countItem(item);
      this.cache.set(item, cached);
    }
    return cached;
  }
}
