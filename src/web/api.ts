/**
 * The page's only way to the engine: typed `fetch` calls to `cody serve` on the page's own origin (the
 * session cookie goes along, `credentials: 'same-origin'`) and `EventSource` streams. Every request that
 * changes something carries `X-Cody-Request: 1`: the server refuses a cookie-authenticated one without it,
 * so a form on another site cannot act for the person.
 */
import type {
  ConversationState,
  ConversationSummary,
  ProviderInfo,
  ServerEvent,
  ServerEventType,
  SessionInfo,
  TranscriptPage,
} from './types.js';

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;

  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Dispatched on `window` when the server no longer knows the session (it restarted, or signed it out). */
export const SIGNED_OUT_EVENT = 'cody-signed-out';

export async function request<T>(method: Method, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (method !== 'GET') headers['x-cody-request'] = '1';
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  const parsed: unknown = text === '' ? undefined : JSON.parse(text);
  if (!response.ok) {
    const error = (parsed as { error?: { code?: string; message?: string } } | undefined)?.error;
    if (response.status === 401 && !path.startsWith('/auth/'))
      window.dispatchEvent(new Event(SIGNED_OUT_EVENT));
    throw new ApiError(response.status, error?.code ?? 'http-error', error?.message ?? response.statusText);
  }
  return parsed as T;
}

export interface Selection {
  provider?: string;
  api?: string;
  model?: string;
}

/** The routes the page uses, one function each. */
export const api = {
  signIn: (code: string) => request<SessionInfo>('POST', '/auth/session', { code }),
  signInWithToken: (token: string) => request<SessionInfo>('POST', '/auth/session', { token }),
  session: () => request<SessionInfo>('GET', '/auth/session'),
  conversations: async () =>
    (await request<{ conversations: ConversationSummary[] }>('GET', '/conversations')).conversations,
  conversation: (id: string) =>
    request<ConversationSummary>('GET', `/conversations/${encodeURIComponent(id)}`),
  create: (selection: Selection) => request<ConversationSummary>('POST', '/conversations', selection),
  messages: (id: string, after?: string) =>
    request<TranscriptPage>(
      'GET',
      `/conversations/${encodeURIComponent(id)}/messages?limit=500${after ? `&after=${encodeURIComponent(after)}` : ''}`,
    ),
  state: (id: string) => request<ConversationState>('GET', `/conversations/${encodeURIComponent(id)}/state`),
  send: (id: string, text: string) =>
    request<{ turnId: string }>('POST', `/conversations/${encodeURIComponent(id)}/messages`, { text }),
  abort: (id: string) => request<unknown>('POST', `/conversations/${encodeURIComponent(id)}/abort`),
  respond: (approvalId: string, decision: string, reason?: string) =>
    request<unknown>('POST', `/approvals/${encodeURIComponent(approvalId)}`, {
      decision,
      ...(reason !== undefined ? { reason } : {}),
    }),
  /** `GET /providers`, or undefined from a server without it. */
  providers: async (): Promise<ProviderInfo[] | undefined> => {
    try {
      return (await request<{ providers: ProviderInfo[] }>('GET', '/providers')).providers;
    } catch (error) {
      if (error instanceof ApiError && (error.status === 404 || error.status === 405)) return undefined;
      throw error;
    }
  },
};

/** Every event type a stream may name in an `event:` line; unnamed frames arrive as `message`. */
const EVENT_TYPES: readonly ServerEventType[] = [
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
  'plan-updated',
  'turn-complete',
  'turn-failed',
  'replay-gap',
  'conversation-deleted',
];

export interface StreamHandlers {
  /** Each event with its SSE id (absent on frames a client must not resume from). */
  onEvent(event: ServerEvent, id: string | undefined): void;
  onOpen?(): void;
  /** The connection dropped; EventSource reconnects by itself (sending Last-Event-ID). */
  onError?(): void;
}

/**
 * Listens to a server-sent event stream; `lastEventId` asks the server to replay what came after it.
 * Returns the function that closes the stream.
 */
export function listen(
  path: string,
  handlers: StreamHandlers,
  lastEventId?: string,
  types: readonly string[] = EVENT_TYPES,
): () => void {
  const url = lastEventId ? `${path}?lastEventId=${encodeURIComponent(lastEventId)}` : path;
  const source = new EventSource(url, { withCredentials: false });
  const deliver = (message: MessageEvent<string>): void => {
    let event: ServerEvent;
    try {
      event = JSON.parse(message.data) as ServerEvent;
    } catch {
      return;
    }
    handlers.onEvent(event, message.lastEventId === '' ? undefined : message.lastEventId);
  };
  source.addEventListener('message', deliver);
  for (const type of types) source.addEventListener(type, deliver);
  source.addEventListener('open', () => handlers.onOpen?.());
  source.addEventListener('error', () => handlers.onError?.());
  return () => source.close();
}

/** The signals of `GET /events` (the whole server's conversations), by the names its frames carry. */
export const GLOBAL_EVENT_TYPES = [
  'conversation-created',
  'conversation-deleted',
  'conversation-renamed',
  'conversation-state',
  'approval-pending',
  'replay-gap',
];

export function conversationEvents(id: string, handlers: StreamHandlers, lastEventId?: string): () => void {
  return listen(`/conversations/${encodeURIComponent(id)}/events`, handlers, lastEventId);
}
