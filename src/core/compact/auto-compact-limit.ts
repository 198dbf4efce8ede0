import { DEFAULT_COMPACT_THRESHOLD } from '../config/index.js';

/**
 * Tokens set aside for the compaction prompt (198 o200k tokens) and a `--focus` line, so a history at
 * the limit can still be summarised without trimming.
 */
export const SUMMARY_PROMPT_RESERVE = 400;

/**
 * Most of the window the reply reserve may take. Models with small windows often advertise a max
 * output as large as the window itself; reserving all of it would leave no room for the history.
 */
export const MAX_REPLY_SHARE = 0.25;

/**
 * The clamp never pushes the limit below this share of the window: on a tiny window a lower limit
 * would compact after every turn. (A lower threshold or `tokenLimit` the person set is still honoured.)
 */
export const MIN_LIMIT_SHARE = 0.3;

/** What the auto-compact limit is computed from. */
export interface AutoCompactLimitOptions {
  /** The model's context window, in tokens. */
  contextWindow: number;
  /** The model's maximum output, in tokens. */
  maxOutputTokens: number;
  /** Share of the window at which to compact (config `compact.threshold`); default 0.8. */
  threshold?: number;
  /** Absolute limit in tokens (config `compact.tokenLimit`); wins over `threshold`. */
  tokenLimit?: number;
}

/**
 * The history size at which Cody compacts before sending:
 *
 *   wanted  = tokenLimit ?? ⌊threshold × window⌋
 *   reserve = min(maxOutput, ⌊window / 4⌋) + 400
 *   limit   = min(wanted, max(window − reserve, ⌊0.3 × window⌋))
 *
 * A wanted limit is honoured whether higher or lower than the default, except that it never rises
 * into the room kept for the reply and the summary request. E.g. 128k window, 16k max output →
 * 102,400; a 4,096-token local model with 4,096 max output → min(3,276, 4,096 − 1,024 − 400) = 2,672.
 */
export function autoCompactLimit(options: AutoCompactLimitOptions): number {
  const window = options.contextWindow;
  const wanted = options.tokenLimit ?? Math.floor((options.threshold ?? DEFAULT_COMPACT_THRESHOLD) * window);
  const reserve =
    Math.min(options.maxOutputTokens, Math.floor(window * MAX_REPLY_SHARE)) + SUMMARY_PROMPT_RESERVE;
  const ceiling = Math.max(window - reserve, Math.floor(window * MIN_LIMIT_SHARE));
  return Math.max(1, Math.min(wanted, ceiling));
}
