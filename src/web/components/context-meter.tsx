/**
 * The context-window meter: how much of the model's window the live history fills (from the status and
 * each `usage` event), where automatic compaction starts, and the tokens of the turns run while the page
 * was open, with their cost when the caller knows the model's price.
 */
import { formatTokens } from './compaction-marker.js';
import { formatCost, type UsageTotals } from '../meter-cost.js';

export { addUsage, NO_USAGE, type UsageTotals } from '../meter-cost.js';

export interface ContextMeterProps {
  contextTokens: number;
  contextWindow: number;
  /** Where automatic compaction starts (tokens), when known. */
  autoCompactLimit?: number;
  /** Tokens of the turns seen by this page. */
  usage: UsageTotals;
  /** What those tokens cost at list prices (USD), when the model's price is known. */
  cost?: number;
}

export function ContextMeter({
  contextTokens,
  contextWindow,
  autoCompactLimit,
  usage,
  cost,
}: ContextMeterProps) {
  const share = contextWindow > 0 ? Math.min(1, contextTokens / contextWindow) : 0;
  const percent = Math.round(share * 100);
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
