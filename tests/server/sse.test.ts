/** SSE frames: gathered into one write for a few ms, urgent ones at once, all in order, none lost. */
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { COALESCE_MS, SseStream } from '../../src/server/sse.js';

/** A response that records each write (one write is one socket write for Node's HTTP server). */
function recordingResponse(): { response: ServerResponse; writes: string[]; ended: () => boolean } {
  const emitter = new EventEmitter();
  const writes: string[] = [];
  let ended = false;
  const response = Object.assign(emitter, {
    writeHead: () => response,
    write: (chunk: string) => writes.push(chunk) > 0,
    end: () => {
      ended = true;
    },
  });
  return { response: response as unknown as ServerResponse, writes, ended: () => ended };
}

describe('SseStream', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends the frames of a few ms in one write, in order', () => {
    const { response, writes } = recordingResponse();
    const stream = new SseStream(response);
    writes.length = 0; // the opening retry hint
    stream.send({ id: 'b-1', data: '{"type":"text-delta","text":"a"}' });
    stream.send({ id: 'b-2', data: '{"type":"text-delta","text":"b"}' });
    expect(writes).toEqual([]);
    vi.advanceTimersByTime(COALESCE_MS);
    expect(writes).toEqual([
      'id: b-1\ndata: {"type":"text-delta","text":"a"}\n\nid: b-2\ndata: {"type":"text-delta","text":"b"}\n\n',
    ]);
    stream.end();
  });

  it('sends an urgent frame at once, after what was gathered before it', () => {
    const { response, writes } = recordingResponse();
    const stream = new SseStream(response);
    writes.length = 0;
    stream.send({ id: 'b-1', data: '{"type":"usage"}' });
    stream.send({ id: 'b-2', data: '{"type":"turn-complete"}', urgent: true });
    expect(writes).toEqual([
      'id: b-1\ndata: {"type":"usage"}\n\nid: b-2\ndata: {"type":"turn-complete"}\n\n',
    ]);
    vi.advanceTimersByTime(COALESCE_MS * 2);
    expect(writes).toHaveLength(1); // nothing left behind to send twice
    stream.end();
  });

  it('sends what is pending before a heartbeat and before the stream ends; nothing after', () => {
    const { response, writes, ended } = recordingResponse();
    const stream = new SseStream(response, { heartbeatMs: 1000 });
    writes.length = 0;
    stream.send({ data: '{"type":"replay-gap"}' });
    vi.advanceTimersByTime(1000);
    expect(writes.join('')).toBe('data: {"type":"replay-gap"}\n\n: heartbeat\n\n');
    stream.send({ id: 'b-3', data: '{"type":"state"}' });
    stream.end();
    expect(writes.at(-1)).toBe('id: b-3\ndata: {"type":"state"}\n\n');
    expect(ended()).toBe(true);
    stream.send({ id: 'b-4', data: '{"type":"late"}' });
    vi.advanceTimersByTime(COALESCE_MS);
    expect(writes.join('')).not.toContain('late');
  });
});
