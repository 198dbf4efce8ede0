/**
 * Server-sent events on one response: frames with `id:` and `data:` (the event's JSON, which carries its
 * `type`), a comment heartbeat so proxies and clients know the stream is alive, and a clean end.
 */
import type { ServerResponse } from 'node:http';

/** The issue's contract: a heartbeat every 15 s. */
export const HEARTBEAT_MS = 15_000;

export interface SseFrame {
  /** Omitted for frames a reconnecting client must not resume from. */
  id?: string;
  data: string;
}

export class SseStream {
  private readonly response: ServerResponse;
  private readonly heartbeat: NodeJS.Timeout;
  private closed = false;
  private corked = false;

  constructor(
    response: ServerResponse,
    options: { heartbeatMs?: number; headers?: Record<string, string> } = {},
  ) {
    this.response = response;
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
    // The events of one tick (a burst of deltas, a turn's last events) leave in one write, not one each.
    if (!this.corked) {
      this.corked = true;
      this.response.cork();
      process.nextTick(() => {
        this.corked = false;
        this.response.uncork();
      });
    }
    // JSON.stringify never emits a raw newline, so one `data:` line carries the whole event.
    this.response.write(`${frame.id !== undefined ? `id: ${frame.id}\n` : ''}data: ${frame.data}\n\n`);
  }

  comment(text: string): void {
    if (!this.closed) this.response.write(`: ${text}\n\n`);
  }

  end(): void {
    if (this.closed) return;
    this.dispose();
    this.response.end();
  }

  /** Called once the client goes away or the stream ends. */
  onClose(listener: () => void): void {
    this.response.once('close', listener);
  }

  private dispose(): void {
    this.closed = true;
    clearInterval(this.heartbeat);
  }
}
