/**
 * The streaming redactor: a secret split anywhere across two or three pieces never comes out, the output
 * joins to what redacting the whole text gives, and only the shortest possibly-secret tail is held back.
 */
import { describe, expect, it } from 'vitest';
import { compileMatchers, REDACTED, redactText } from '../../../../src/core/redact/redact.js';
import { redactEvents, StreamRedactor } from '../../../../src/core/redact/redact-stream.js';
import type { SessionEvent } from '../../../../src/core/conversation/session-events.js';

const CONFIGURED = 'sk-test-123456789';
const TOKEN = 'tok_Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MA';
// Built by concatenation so this file itself holds no literal key shape.
const SHAPES: Record<string, string> = {
  openai: `sk-${'A1b2C3d4E5'.repeat(4)}T3BlbkFJ`,
  'openai project': `sk-proj-${'Zx9_Yw8-Vu'.repeat(3)}`,
  anthropic: `sk-ant-api03-${'q1W2e3R4t5'.repeat(3)}-AA`,
  google: `AIza${'SyD3f4G5h6J7k8L9z0X1c2V3b4N5m6Q7w8E'.slice(0, 35)}`,
  github: `ghp_${'a1B2c3D4e5F6'.repeat(3)}`,
  'aws key id': `AKIA${'IOSFODNN7EXAMPLE'}`,
  'aws secret': `aws_secret_access_key = ${'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'}`,
  'configured key': CONFIGURED,
  'server token': TOKEN,
  'config pattern': 'corp-123456',
};
const matchers = compileMatchers({
  patterns: ['corp-[0-9]{6}'],
  secrets: [CONFIGURED, TOKEN],
});

/** The secret part of a case (the AWS secret keeps its label). */
const secretOf = (value: string): string => value.replace(/^aws_secret_access_key = /, '');

function stream(pieces: readonly string[]): string {
  const redactor = new StreamRedactor(matchers);
  return pieces.map((piece) => redactor.push(piece)).join('') + redactor.flush();
}

describe('StreamRedactor', () => {
  for (const [name, key] of Object.entries(SHAPES)) {
    const text = `Here: ${key}, and again "${key}".`;
    const expected = redactText(text, matchers);
    const start = text.indexOf(key);

    it(`never lets a ${name} through, split at every position in two and three pieces`, () => {
      expect(expected).not.toContain(secretOf(key));
      expect(expected).toContain(REDACTED);
      for (let first = start; first <= start + key.length; first += 1) {
        expect(stream([text.slice(0, first), text.slice(first)])).toBe(expected);
        for (let second = first; second <= start + key.length; second += 1) {
          const joined = stream([text.slice(0, first), text.slice(first, second), text.slice(second)]);
          expect(joined).toBe(expected);
        }
      }
    });
  }

  it('streams prose a character at a time unchanged, holding only what could start a secret', () => {
    const text = 'the sk-ate park, id 0193a1b2-c3d4-7e5f, AKIA is a word, corp-12 too';
    expect(stream([...text])).toBe(text);
    const redactor = new StreamRedactor(compileMatchers({ secrets: [TOKEN] }));
    expect(redactor.push('hello wor')).toBe('hello wor');
    expect(redactor.holding).toBe(0);
    expect(redactor.push('ld, s')).toBe('ld, ');
    expect(redactor.holding).toBe(1);
    expect(redactor.push('ure: tok_Zm9')).toBe('sure: ');
    expect(redactor.holding).toBe('tok_Zm9'.length);
    expect(redactor.push('x')).toBe('tok_Zm9x');
    expect(redactor.flush()).toBe('');
  });

  it('holds the last word for a config pattern, and the last line for one that can match a space', () => {
    const words = new StreamRedactor(compileMatchers({ patterns: ['corp-[0-9]{6}'] }));
    expect(words.push('see corp-12')).toBe('see ');
    expect(words.push('3456 ok')).toBe(`${REDACTED} `);
    const lines = new StreamRedactor(compileMatchers({ patterns: ['pass word [0-9]+'] }));
    expect(lines.push('a\nthe pass wo')).toBe('a\n');
    expect(lines.push('rd 42\n')).toBe(`the ${REDACTED}\n`);
  });

  it('does not redact arbitrary values: exact secrets are only the ones given', () => {
    expect(stream(['createdAt and SORT_KEY'])).toBe('createdAt and SORT_KEY');
  });
});

async function* from(events: SessionEvent[]): AsyncGenerator<SessionEvent> {
  for (const event of events) yield event;
}

async function collect(events: AsyncIterable<SessionEvent>): Promise<SessionEvent[]> {
  const seen: SessionEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

describe('redactEvents', () => {
  const key = CONFIGURED;

  it('redacts each stream on its own, flushes at the end of a response and of the turn', async () => {
    const seen = await collect(
      redactEvents(
        from([
          { type: 'text-delta', text: `a ${key.slice(0, 5)}` },
          { type: 'reasoning-delta', text: `r ${key.slice(0, 9)}` },
          { type: 'state', state: 'StreamingLLMResponse' },
          { type: 'text-delta', text: `${key.slice(5)} b` },
          { type: 'reasoning-delta', text: key.slice(9) },
          {
            type: 'item-recorded',
            item: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: key }] },
          },
          { type: 'tool-output', callId: 'c1', chunk: key.slice(0, 3) },
          { type: 'tool-output', callId: 'c2', chunk: `x ${key.slice(0, 4)}` },
          { type: 'tool-output', callId: 'c1', chunk: key.slice(3) },
          { type: 'tool-finished', callId: 'c1', durationMs: 1, status: 'ok' },
        ]),
        matchers,
      ),
    );
    const text = (type: string): string =>
      seen.flatMap((event) => (event.type === type && 'text' in event ? [event.text] : [])).join('');
    const output = (callId: string): string =>
      seen
        .flatMap((event) => (event.type === 'tool-output' && event.callId === callId ? [event.chunk] : []))
        .join('');
    expect(text('text-delta')).toBe(`a ${REDACTED} b`);
    expect(text('reasoning-delta')).toBe(`r ${REDACTED}`);
    expect(output('c1')).toBe(REDACTED);
    // c2 never finished: its held tail comes out when the turn ends.
    expect(output('c2')).toBe(`x ${key.slice(0, 4)}`);
    expect(seen.at(-1)).toEqual({ type: 'tool-output', callId: 'c2', chunk: key.slice(0, 4) });
    expect(JSON.stringify(seen)).not.toContain(key);
    // The reply's tail comes before the item that ends it.
    const recorded = seen.findIndex((event) => event.type === 'item-recorded');
    expect(seen[recorded - 1]).toEqual({ type: 'reasoning-delta', text: REDACTED });
  });

  it('replaces values, never JSON keys, even when a secret is spelled like one', async () => {
    const named = compileMatchers({ secrets: ['finishReason', 'createdAt-value'] });
    const [event] = await collect(
      redactEvents(
        from([{ type: 'turn-complete', turnId: 'finishReason', finishReason: 'stop', status: 'completed' }]),
        named,
      ),
    );
    expect(event).toEqual({
      type: 'turn-complete',
      turnId: REDACTED,
      finishReason: 'stop',
      status: 'completed',
    });
  });

  it('flushes before a failure is thrown, and closes the inner turn when the consumer stops', async () => {
    let closed = false;
    async function* failing(): AsyncGenerator<SessionEvent> {
      try {
        yield { type: 'text-delta', text: 'ok s' };
        throw new Error(`boom with ${CONFIGURED}`);
      } finally {
        closed = true;
      }
    }
    const seen: SessionEvent[] = [];
    await expect(
      (async () => {
        for await (const event of redactEvents(failing(), matchers)) seen.push(event);
      })(),
    ).rejects.toThrow(`boom with ${REDACTED}`);
    expect(seen).toEqual([
      { type: 'text-delta', text: 'ok ' },
      { type: 'text-delta', text: 's' },
    ]);
    closed = false;
    async function* endless(): AsyncGenerator<SessionEvent> {
      try {
        for (;;) yield { type: 'state', state: 'StreamingLLMResponse' };
      } finally {
        closed = true;
      }
    }
    for await (const event of redactEvents(endless(), matchers)) if (event.type === 'state') break;
    expect(closed).toBe(true);
  });
});
