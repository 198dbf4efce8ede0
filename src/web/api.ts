/**
 * The page's only way to the engine: typed `fetch` calls to `cody serve` on the page's own origin (the
 * session cookie goes along, `credentials: 'same-origin'`) and event streams read with `fetch` too
 * (event-stream.ts). Every request carries the session's secret (`X-Cody-Session`, session-secret.ts):
 * the cookie alone authorises nothing, as every service on this host is sent it. Every request that
 * changes something also carries `X-Cody-Request: 1`.
 */
import { ApiError } from './api-error.js';
import { openEventStream } from './event-stream.js';
import { EVENT_TYPES } from './event-types.js';
import { forgetSessionSecret, keepSessionSecret, sessionSecret } from './session-secret.js';
import type {
  ConversationState,
  ConversationSummary,
  ProviderInfo,
  ServerEvent,
  SessionInfo,
  TranscriptPage,
} from './types.js';

export { ApiError };

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Dispatched on `window` when the server no longer knows the session (it restarted, or signed it out). */
export const SIGNED_OUT_EVENT = 'cody-signed-out';

/** The session's secret, on every request (the stream's too). */
function sessionHeaders(): Record<string, string> {
  const secret = sessionSecret();
  return secret !== undefined ? { 'x-cody-session': secret } : {};
}

/** 401 (no such session) or 403 `session-secret` (this tab's secret is not the cookie's session's). */
function lostSession(status: number, code: string | undefined): void {
  if (status !== 401 && code !== 'session-secret') return;
  forgetSessionSecret();
  window.dispatchEvent(new Event(SIGNED_OUT_EVENT));
}

export async function request<T>(method: Method, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...sessionHeaders() };
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
    if (!path.startsWith('/auth/')) lostSession(response.status, error?.code);
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
/** Signs in, and keeps the session's secret the answer holds. */
async function signIn(body: { code: string } | { token: string }): Promise<SessionInfo> {
  const { secret, ...session } = await request<SessionInfo & { secret: string }>(
    'POST',
    '/auth/session',
    body,
  );
  keepSessionSecret(secret);
  return session;
}

export const api = {
  signIn: (code: string) => signIn({ code }),
  signInWithToken: (token: string) => signIn({ token }),
  session: () => request<SessionInfo>('GET', '/auth/session'),
  /** Ends the session on the server (cookie and secret), then forgets the secret in every tab. */
  signOut: async () => {
    try {
      await request<unknown>('DELETE', '/auth/session');
    } finally {
      forgetSessionSecret(true);
    }
  },
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

export interface StreamHandlers {
  /** Each event with its SSE id (absent on frames a client must not resume from). */
  onEvent(event: ServerEvent, id: string | undefined): void;
  onOpen?(): void;
  /** The connection dropped (it reconnects by itself, sending Last-Event-ID) or was refused. */
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
  const named = new Set(['message', ...types]);
  return openEventStream(url, sessionHeaders, {
    onOpen: () => handlers.onOpen?.(),
    onFrame: (frame) => {
      if (!named.has(frame.type)) return;
      let event: ServerEvent;
      try {
        event = JSON.parse(frame.data) as ServerEvent;
      } catch {
        return;
      }
      handlers.onEvent(event, frame.lastEventId === '' ? undefined : frame.lastEventId);
    },
    onError: (status) => {
      // A stream of the page's own origin refused with 403 was refused for the session's secret.
      if (status !== undefined) lostSession(status, status === 403 ? 'session-secret' : undefined);
      handlers.onError?.();
    },
  });
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
