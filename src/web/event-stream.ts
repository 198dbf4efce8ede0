/**
 * A server-sent event stream read with `fetch`, because `EventSource` cannot send a header and every
 * request of the page must carry the session's secret (`X-Cody-Session`; the cookie alone authorises
 * nothing). It behaves as `EventSource` does: frames by `event:`/`id:`/`data:` lines, the last event id
 * kept across frames and sent again as `Last-Event-ID` when it reconnects after a drop (waiting the
 * server's `retry:`), and no reconnecting after an answer that is not a stream (an error status).
 */

export interface StreamFrame {
  /** The `event:` line, `message` without one. */
  type: string;
  data: string;
  /** The last event id seen on this stream so far ('' for none), as `EventSource` reports it. */
  lastEventId: string;
}

export interface EventStreamHandlers {
  onOpen(): void;
  onFrame(frame: StreamFrame): void;
  /** The stream dropped (it reconnects by itself) or was refused (`status`, and it stays closed). */
  onError(status?: number): void;
}

const DEFAULT_RETRY_MS = 3_000;

/** Opens `url` with `headers()` (read again on each reconnect); returns the function that closes it. */
export function openEventStream(
  url: string,
  headers: () => Record<string, string>,
  handlers: EventStreamHandlers,
): () => void {
  const controller = new AbortController();
  let lastEventId = '';
  let retryMs = DEFAULT_RETRY_MS;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const connect = async (): Promise<void> => {
    const response = await fetch(url, {
      credentials: 'same-origin',
      signal: controller.signal,
      headers: {
        accept: 'text/event-stream',
        ...headers(),
        ...(lastEventId !== '' ? { 'last-event-id': lastEventId } : {}),
      },
    });
    const type = response.headers.get('content-type') ?? '';
    if (!response.ok || !type.startsWith('text/event-stream') || response.body === null) {
      void response.body?.cancel();
      return handlers.onError(response.status);
    }
    handlers.onOpen();
    const parser = new FrameParser((frame) => handlers.onFrame(frame), {
      lastEventId: () => lastEventId,
      setLastEventId: (id) => (lastEventId = id),
      setRetry: (ms) => (retryMs = ms),
    });
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      parser.push(value);
    }
    reconnect();
  };
  const reconnect = (): void => {
    if (controller.signal.aborted) return;
    handlers.onError();
    timer = setTimeout(() => void connect().catch(reconnect), retryMs);
  };
  void connect().catch(reconnect);
  return () => {
    controller.abort();
    if (timer !== undefined) clearTimeout(timer);
  };
}

export interface ParserState {
  lastEventId(): string;
  setLastEventId(id: string): void;
  setRetry(ms: number): void;
}

/** The `text/event-stream` format: lines ending in CR, LF or CRLF; a blank line ends a frame. */
export class FrameParser {
  private buffer = '';
  /** The last chunk ended in CR: an LF starting the next one belongs to that line end. */
  private afterCR = false;
  private type = '';
  private data: string[] = [];
  private readonly emit: (frame: StreamFrame) => void;
  private readonly state: ParserState;

  constructor(emit: (frame: StreamFrame) => void, state: ParserState) {
    this.emit = emit;
    this.state = state;
  }

  push(chunk: string): void {
    this.buffer += this.afterCR && chunk.startsWith('\n') ? chunk.slice(1) : chunk;
    this.afterCR = chunk.endsWith('\r');
    const lines = this.buffer.split(/\r\n|\r|\n/);
    // The last piece is a line not yet ended.
    this.buffer = lines.pop() ?? '';
    for (const line of lines) this.line(line);
  }

  private line(line: string): void {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.type = value;
    else if (field === 'data') this.data.push(value);
    else if (field === 'id' && !value.includes('\0')) this.state.setLastEventId(value);
    else if (field === 'retry' && /^\d+$/.test(value)) this.state.setRetry(Number(value));
  }

  private dispatch(): void {
    const type = this.type === '' ? 'message' : this.type;
    const data = this.data;
    this.type = '';
    this.data = [];
    if (data.length === 0) return;
    this.emit({ type, data: data.join('\n'), lastEventId: this.state.lastEventId() });
  }
}
