/**
 * Server-sent events on one response: frames with `event:` (the event's `type`, so a browser's
 * `EventSource.addEventListener('text-delta', …)` receives it), `id:` and `data:` (the event's JSON,
 * which carries its `type` too), a comment heartbeat so proxies and clients know the stream is alive, and a clean end.
 */
import type { ServerResponse } from 'node:http';

/** The contract: a heartbeat every 15 s. */
export const HEARTBEAT_MS = 15_000;
/**
 * Frames are gathered for up to this long and leave in one write: a turn's events arrive over several
 * network reads, and one socket write per event was ~12 writes and ~0.7 ms of the server's CPU per turn
 * (bench/serve.bench.js). 4 ms is well under a frame of any display; urgent frames do not wait.
 */
export const COALESCE_MS = 4;

export interface SseFrame {
  /** The event's type, sent as `event:` (absent: a plain `message`). */
  event?: string;
  /** Omitted for frames a reconnecting client must not resume from. */
  id?: string;
  data: string;
  /** Sent at once with everything gathered before it (a turn's end, a question for the client). */
  urgent?: boolean;
}

export class SseStream {
  private readonly response: ServerResponse;
  private readonly heartbeat: NodeJS.Timeout;
  private closed = false;
  private pending: string[] = [];
  private flushTimer: NodeJS.Timeout | undefined;
  private readonly redact: (data: string) => string;

  constructor(
    response: ServerResponse,
    options: {
      heartbeatMs?: number;
      headers?: Record<string, string>;
      /** Applied to each frame's data before it is sent (the server's secret filter). */
      redact?: (data: string) => string;
    } = {},
  ) {
    this.response = response;
    this.redact = options.redact ?? ((data) => data);
    response.writeHead(200, {
      ...options.headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    // A retry hint for EventSource clients, and bytes on the wire so the client sees the stream open.
    response.write('retry: 1000\n\n');
    this.heartbeat = setInterval(() => this.comment('heartbeat'), options.heartbeatMs ?? HEARTBEAT_MS);
    this.heartbeat.unref();
    response.once('close', () => this.dispose());
  }

  get isClosed(): boolean {
    return this.closed;
  }

  send(frame: SseFrame): void {
    if (this.closed) return;
    // JSON.stringify never emits a raw newline, so one `data:` line carries the whole event.
    const event = frame.event !== undefined ? `event: ${frame.event}\n` : '';
    const id = frame.id !== undefined ? `id: ${frame.id}\n` : '';
    this.pending.push(`${event}${id}data: ${this.redact(frame.data)}\n\n`);
    if (frame.urgent) this.flush();
    else this.flushTimer ??= setTimeout(() => this.flush(), COALESCE_MS);
  }

  comment(text: string): void {
    if (this.closed) return;
    this.pending.push(`: ${text}\n\n`);
    this.flush();
  }

  end(): void {
    if (this.closed) return;
    this.flush();
    this.dispose();
    this.response.end();
  }

  /** Writes what was gathered, in order, in one write. */
  private flush(): void {
    if (this.flushTimer !== undefined) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (this.closed || this.pending.length === 0) return;
    const text = this.pending.length === 1 ? this.pending[0]! : this.pending.join('');
    this.pending = [];
    this.response.write(text);
  }

  /** Called once the client goes away or the stream ends. */
  onClose(listener: () => void): void {
    this.response.once('close', listener);
  }

  private dispose(): void {
    this.closed = true;
    clearInterval(this.heartbeat);
    if (this.flushTimer !== undefined) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
  }
}
