/** The page's event-stream reader parses `text/event-stream` as EventSource does, however it is chunked. */
import { describe, expect, it } from 'vitest';
import { FrameParser, type StreamFrame } from '../../../src/web/event-stream.js';

function parse(chunks: string[]): { frames: StreamFrame[]; retry: number | undefined } {
  const frames: StreamFrame[] = [];
  let lastEventId = '';
  let retry: number | undefined;
  const parser = new FrameParser((frame) => frames.push(frame), {
    lastEventId: () => lastEventId,
    setLastEventId: (id) => (lastEventId = id),
    setRetry: (ms) => (retry = ms),
  });
  for (const chunk of chunks) parser.push(chunk);
  return { frames, retry };
}

describe('FrameParser', () => {
  it('reads event, id and data lines, skips comments, and keeps the last id across frames', () => {
    const { frames, retry } = parse([
      'retry: 1000\n\n: heartbeat\n\n',
      'event: text-delta\nid: b-1\ndata: {"a":1}\n\n',
      'data: plain\n\n',
    ]);
    expect(retry).toBe(1000);
    expect(frames).toEqual([
      { type: 'text-delta', data: '{"a":1}', lastEventId: 'b-1' },
      { type: 'message', data: 'plain', lastEventId: 'b-1' },
    ]);
  });

  it('joins a frame split anywhere, CRLF split between chunks included, and several data lines', () => {
    const text = 'event: usage\r\nid: b-2\r\ndata: one\r\ndata: two\r\n\r\n';
    for (let cut = 1; cut < text.length; cut += 1) {
      const { frames } = parse([text.slice(0, cut), text.slice(cut)]);
      expect(frames, `cut at ${cut}`).toEqual([{ type: 'usage', data: 'one\ntwo', lastEventId: 'b-2' }]);
    }
  });
});
