import type { FinishReason, FunctionCallItem, ResponseItem, TokenUsage, WireApi } from '../protocol/index.js';

/** Why a compaction ran. */
export type CompactionTrigger = 'auto' | 'overflow' | 'manual';

/** What a turn reports as it runs. The CLI renders these; tests collect them. */
export type SessionEvent =
  | { type: 'turn-started'; turnId: string; provider: string; api: WireApi; model: string }
  | { type: 'text-delta'; text: string }
  | { type: 'reasoning-delta'; text: string }
  /** An item is now in the history (and durable, unless a `warning` said saving failed). */
  | { type: 'item-recorded'; item: ResponseItem }
  | {
      type: 'usage';
      usage: TokenUsage;
      /** Tokens the live history now occupies. */
      contextTokens: number;
      contextWindow: number;
    }
  | { type: 'warning'; message: string }
  /** A failed request is being repeated; text already shown for it is void. */
  | {
      type: 'retry';
      attempt: number;
      maxRetries: number;
      delayMs: number;
      reason: string;
      discardedPartial: boolean;
    }
  | { type: 'compaction-started'; trigger: CompactionTrigger; tokensBefore: number }
  | {
      type: 'compaction-finished';
      trigger: CompactionTrigger;
      status: string;
      tokensBefore: number;
      tokensAfter: number;
      trimmedItems: number;
      summaryFailed: boolean;
    }
  | { type: 'tool-call'; call: FunctionCallItem; approved: boolean }
  | { type: 'turn-complete'; turnId: string; finishReason: FinishReason; usage?: TokenUsage };
