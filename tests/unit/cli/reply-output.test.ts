import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../src/core/conversation/session-events.js';
import { createReplyOutput } from '../../../src/cli/reply-output.js';

function stream(isTTY: boolean): { isTTY: boolean; text: string; write(chunk: string): void } {
  return {
    isTTY,
    text: '',
    write(chunk) {
      this.text += chunk;
    },
  };
}

const delta = (text: string): SessionEvent => ({ type: 'text-delta', text });
const retry = (discardedPartial: boolean): SessionEvent => ({
  type: 'retry',
  attempt: 1,
  maxRetries: 3,
  delayMs: 10,
  reason: 'connection lost',
  discardedPartial,
});

describe('createReplyOutput', () => {
  it('in a pipe, drops a retried attempt and writes the final reply once', () => {
    const stdout = stream(false);
    const reply = createReplyOutput(stdout, { discardedMark: 'MARK' });
    reply.handle(delta('Hel'));
    reply.handle(delta('lo wor'));
    expect(stdout.text).toBe('');
    reply.handle(retry(true));
    reply.handle(delta('Hello '));
    reply.handle(delta('world'));
    reply.handle({
      type: 'usage',
      usage: { inputTokens: 1, outputTokens: 1 },
      contextTokens: 2,
      contextWindow: 100,
    });
    expect(stdout.text).toBe('');
    reply.end();
    expect(stdout.text).toBe('Hello world');
  });

  it('in a pipe, releases a response once a later event settles it', () => {
    const stdout = stream(false);
    const reply = createReplyOutput(stdout, { discardedMark: 'MARK' });
    reply.handle(delta('first answer'));
    reply.handle({
      type: 'item-recorded',
      item: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'first answer' }] },
    });
    expect(stdout.text).toBe('first answer');
  });

  it('on a terminal, streams at once and marks a discarded part on its own line', () => {
    const stdout = stream(true);
    const reply = createReplyOutput(stdout, { discardedMark: 'MARK' });
    reply.handle(delta('Hel'));
    expect(stdout.text).toBe('Hel');
    reply.handle(retry(true));
    reply.handle(delta('Hello'));
    reply.end();
    expect(stdout.text).toBe('Hel\nMARK\nHello');
  });

  it('sanitises reply text', () => {
    const stdout = stream(false);
    const reply = createReplyOutput(stdout, { discardedMark: 'MARK' });
    reply.handle(delta('a\u001b[2Jb\r\nc'));
    reply.end();
    expect(stdout.text).toBe('a^[[2Jb\nc');
  });
});
