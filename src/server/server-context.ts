import { isConversationId } from '../core/index.js';
import { ApiError } from './api-error.js';
import type { Engine } from './engine-port.js';
import type { LiveConversations } from './live-conversations.js';
import type { GlobalEvents } from './global-events.js';
import type { SseStream } from './sse.js';

/** What every route handler works with. */
export interface ServerContext {
  engine: Engine;
  live: LiveConversations;
  /** Open SSE streams, ended on shutdown. */
  streams: Set<SseStream>;
  /** The open event streams of each conversation, ended when it is deleted. */
  conversationStreams: Map<string, Set<SseStream>>;
  /** `GET /events`: conversation-level signals for list views. */
  signals: GlobalEvents;
  heartbeatMs: number;
  /** Every secret Cody knows replaced in an SSE frame's JSON (each stream's `redact`). */
  redactFrame: (data: string) => string;
  /** Headers every answer carries (CORS when configured). */
  extraHeaders: Record<string, string>;
}

/** A conversation id from the path: only whole ids, so nothing odd ever reaches a file name. */
export function conversationIdParam(params: Record<string, string>): string {
  const id = params.id ?? '';
  if (!isConversationId(id)) {
    throw new ApiError(404, 'conversation-not-found', `Conversation '${id}' not found (use the full id).`);
  }
  return id;
}

/** A conversation summary as the API shows it: never the rollout's absolute path on the server. */
export function summaryView(summary: unknown): unknown {
  if (typeof summary !== 'object' || summary === null || Array.isArray(summary)) return summary;
  const { filePath: _filePath, ...shown } = summary as Record<string, unknown>;
  return shown;
}
