/**
 * A real client for `cody serve` in tests: fetch with the bearer token, and a server-sent-events parser
 * written to the WHATWG rules (fields per line, a blank line dispatches, comments ignored).
 */
export interface SseMessage {
  /** The frame's `event:` name (undefined: a plain message). */
  event?: string | undefined;
  id: string | undefined;
  data: string;
}

/** Told of each answer and event (the serve harness checks them against openapi.json). */
export interface ApiChecks {
  answer(method: string, path: string, status: number, headers: Headers, text: string): void;
  event(path: string, event: string | undefined, data: string): void;
}

export interface ApiClient {
  request(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiAnswer>;
  events(path: string, options?: { lastEventId?: string }): Promise<EventStream>;
}

export interface ApiAnswer {
  status: number;
  headers: Headers;
  text: string;
  json: Record<string, unknown>;
}

export interface EventStream {
  /** The next message (comments are counted in `comments` instead). */
  next(timeoutMs?: number): Promise<SseMessage>;
  /** Messages until one satisfies `done` (inclusive). */
  until(done: (event: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<SseMessage[]>;
  comments: string[];
  /** Every byte received, to check no secret ever appears. */
  raw(): string;
  close(): void;
}

export function apiClient(baseUrl: string, token: string, checks?: ApiChecks): ApiClient {
  return {
    async request(method, path, body, headers = {}) {
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
      });
      const text = await response.text();
      checks?.answer(method, path, response.status, response.headers, text);
      let json: Record<string, unknown> = {};
      try {
        json = JSON.parse(text) as Record<string, unknown>;
      } catch {
        json = {};
      }
      return { status: response.status, headers: response.headers, text, json };
    },
    async events(path, options = {}) {
      const controller = new AbortController();
      const response = await fetch(`${baseUrl}${path}`, {
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'text/event-stream',
          ...(options.lastEventId !== undefined ? { 'last-event-id': options.lastEventId } : {}),
        },
        signal: controller.signal,
      });
      if (response.status !== 200 || !response.body) {
        throw new Error(`event stream answered ${response.status}: ${await response.text()}`);
      }
      checks?.answer('GET', path, response.status, response.headers, '');
      return parseEventStream(
        response.body,
        () => controller.abort(),
        (message) => checks?.event(path, message.event, message.data),
      );
    },
  };
}

export function parseEventStream(
  body: ReadableStream<Uint8Array>,
  abort: () => void,
  check: (message: SseMessage) => void = () => undefined,
): EventStream {
  const queue: SseMessage[] = [];
  const comments: string[] = [];
  const waiters: Array<() => void> = [];
  let raw = '';
  let ended = false;
  let buffer = '';
  let data: string[] = [];
  let event: string | undefined;
  let failure: Error | undefined;
  let id: string | undefined;
  let lastId: string | undefined;

  const wake = (): void => {
    for (const waiter of waiters.splice(0)) waiter();
  };
  const line = (text: string): void => {
    if (text === '') {
      if (data.length > 0) {
        const message = { event, id, data: data.join('\n') };
        try {
          check(message);
        } catch (error) {
          failure ??= error as Error;
        }
        queue.push(message);
      }
      data = [];
      event = undefined;
      id = lastId;
      return;
    }
    if (text.startsWith(':')) {
      comments.push(text.slice(1).trim());
      return;
    }
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    const value = colon === -1 ? '' : text.slice(colon + 1).replace(/^ /, '');
    if (field === 'data') data.push(value);
    if (field === 'event') event = value;
    if (field === 'id') {
      id = value;
      lastId = value;
    }
  };
  void (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
        const text = decoder.decode(chunk, { stream: true });
        raw += text;
        buffer += text;
        let newline: number;
        while ((newline = buffer.search(/\r\n|\r|\n/)) !== -1) {
          const match = /\r\n|\r|\n/.exec(buffer.slice(newline));
          line(buffer.slice(0, newline));
          buffer = buffer.slice(newline + (match?.[0].length ?? 1));
        }
        wake();
      }
    } catch {
      // aborted by close()
    } finally {
      ended = true;
      wake();
    }
  })();

  const next = async (timeoutMs = 10_000): Promise<SseMessage> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      // An event that broke the schema fails the test that reads the stream.
      if (failure) throw failure;
      const message = queue.shift();
      if (message) return message;
      if (ended) throw new Error('event stream ended');
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`no event within ${timeoutMs} ms; received so far:\n${raw.slice(-3000)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  };
  return {
    next,
    async until(done, timeoutMs = 10_000) {
      const seen: SseMessage[] = [];
      for (;;) {
        const message = await next(timeoutMs);
        seen.push(message);
        if (done(JSON.parse(message.data) as Record<string, unknown>)) return seen;
      }
    },
    comments,
    raw: () => raw,
    close: abort,
  };
}

/** The parsed `data:` JSON of each message. */
export function eventsOf(messages: SseMessage[]): Array<Record<string, unknown>> {
  return messages.map((message) => JSON.parse(message.data) as Record<string, unknown>);
}
