/** The event types the page's streams listen for (api.ts `listen`). */
import type { ServerEventType } from './types.js';

/**
 * Every event type a stream may name in an `event:` line that the page listens for (any other frame is
 * ignored); unnamed frames arrive as `message`.
 */
export const EVENT_TYPES: readonly ServerEventType[] = [
  'turn-started',
  'state',
  'text-delta',
  'reasoning-delta',
  'item-recorded',
  'usage',
  'warning',
  'retry',
  'compaction-started',
  'compaction-finished',
  'tool-call',
  'approval-requested',
  'approval-resolved',
  'tool-started',
  'tool-output',
  'tool-finished',
  'hook',
  'plan-updated',
  'turn-complete',
  'turn-failed',
  'replay-gap',
  'conversation-deleted',
];
