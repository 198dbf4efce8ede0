/**
 * The context-window meter: how much of the model's window the live history fills (from the status and
 * each `usage` event), where automatic compaction starts, and the tokens and cost of the turns run while
 * the page was open (list prices, the terminal's table; no cost for a model without a known price).
 */
import { costOf, formatCost } from '../../cli/prices.js';
import { formatTokens } from './compaction-marker.js';

export interface UsageTotals {
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
}

export interface ContextMeterProps {
  model: string;
  contextTokens: number;
  contextWindow: number;
  /** Where automatic compaction starts (tokens), when known. */
  autoCompactLimit?: number;
  /** Tokens of the turns seen by this page. */
  usage: UsageTotals;
}

export function ContextMeter({
  model,
  contextTokens,
  contextWindow,
  autoCompactLimit,
  usage,
}: ContextMeterProps) {
  const share = contextWindow > 0 ? Math.min(1, contextTokens / contextWindow) : 0;
  const percent = Math.round(share * 100);
  const cost = costOf(model, usage);
  const level = autoCompactLimit !== undefined && contextTokens >= autoCompactLimit * 0.9 ? 'high' : 'normal';
  return (
    <div
      class={`context-meter context-${level}`}
      title={`${contextTokens} of ${contextWindow} tokens in the context window`}
    >
      <meter
        class="context-bar"
        aria-label="Context window"
        min={0}
        max={contextWindow}
        value={contextTokens}
        {...(autoCompactLimit !== undefined ? { high: autoCompactLimit * 0.9 } : {})}
      />
      <span class="context-figures">
        {formatTokens(contextTokens)} / {formatTokens(contextWindow)} ({percent}%)
      </span>
      <span class="context-usage">
        ↑{formatTokens(usage.inputTokens)} ↓{formatTokens(usage.outputTokens)}
        {cost !== undefined ? ` · ${formatCost(cost)}` : ''}
      </span>
    </div>
  );
}

/** Totals after one more turn's `usage` (unknown counts add nothing). */
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

export const NO_USAGE: UsageTotals = { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0 };
