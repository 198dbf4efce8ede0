/**
 * A known secret in a tool's output in the forms a command can print it: plain, base64 (standard and
 * URL-safe, at each of the three offsets inside a longer base64 text, wrapped like `base64` prints it) and
 * hex (lower and upper case, wrapped like `xxd -p`, spaced like `hexdump`). Checked independently of the
 * implementation (read-back.ts): what is left is decoded back at every alignment and searched for any 6
 * bytes in a row of the secret.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { compileMatchers, REDACTED, redactText } from '../../../../src/core/redact/redact.js';
import { StreamRedactor } from '../../../../src/core/redact/redact-stream.js';
import { readableSecrets } from './read-back.js';

/** Its base64 holds both '+' and '/' at every offset, so the URL-safe form differs from the standard one. */
const SECRET = 'k3y~~??>>~?>-live-0123456789';
const matchers = compileMatchers({ secrets: [SECRET] });
const redact = (text: string): string => redactText(text, matchers);

/** Whether any 6 bytes in a row of the secret can be read back from `text` as itself, base64 or hex. */
function readsBack(text: string, secret = SECRET): boolean {
  return readableSecrets(text, [secret], 6).length > 0;
}

const wrap = (text: string, width: number): string =>
  text.match(new RegExp(`.{1,${width}}`, 'gs'))?.join('\n') ?? '';

describe('encoded forms of a known secret', () => {
  it('the fixtures can read the secret back before redaction', () => {
    expect(readsBack(Buffer.from(`x${SECRET}y`).toString('base64'))).toBe(true);
    expect(readsBack(Buffer.from(SECRET).toString('hex'))).toBe(true);
    for (const offset of [0, 1, 2]) {
      const encoded = Buffer.from(`${'a'.repeat(offset)}${SECRET}`).toString('base64');
      expect(encoded).toMatch(/[+/]/);
    }
  });

  for (const offset of [0, 1, 2, 3, 4, 5]) {
    for (const urlSafe of [false, true]) {
      it(`base64${urlSafe ? ' (URL-safe)' : ''}, ${offset} bytes into a longer text`, () => {
        const bytes = Buffer.concat([randomBytes(30 + offset), Buffer.from(SECRET), randomBytes(40)]);
        const encoded = bytes.toString(urlSafe ? 'base64url' : 'base64');
        const output = `file.bin: ${encoded}\ndone`;
        const redacted = redact(output);
        expect(redacted).toContain(REDACTED);
        expect(readsBack(redacted)).toBe(false);
        // Only the secret's part goes: what comes before and after stays.
        expect(redacted.startsWith(`file.bin: ${encoded.slice(0, 40)}`)).toBe(true);
        expect(redacted.endsWith(`${encoded.slice(-50)}\ndone`)).toBe(true);
      });
    }
  }

  it('base64 wrapped at 76 columns, at every offset (as `base64 FILE` prints it)', () => {
    for (let offset = 0; offset < 76; offset += 1) {
      const encoded = Buffer.from(`${'{"key": "'.padEnd(offset, '.')}${SECRET}"}`).toString('base64');
      const redacted = redact(wrap(encoded, 76));
      expect(readsBack(redacted), `offset ${offset}`).toBe(false);
    }
  });

  it('hex in lower and upper case, plain, wrapped at 60 (`xxd -p`) and spaced by byte (`hexdump`)', () => {
    const hex = Buffer.from(`KEY=${SECRET}\n`).toString('hex');
    const spaced = hex.match(/../g)?.join(' ') ?? '';
    for (const form of [hex, hex.toUpperCase(), wrap(hex, 60), spaced, spaced.toUpperCase()]) {
      const redacted = redact(`0000: ${form} end`);
      expect(redacted).toContain(REDACTED);
      expect(readsBack(redacted), form).toBe(false);
      expect(redacted.startsWith('0000: ')).toBe(true);
      expect(redacted.endsWith(' end')).toBe(true);
    }
  });

  it('the plain value folded across lines or spaced out', () => {
    for (const form of [
      wrap(SECRET, 10),
      [...SECRET].join(' '),
      `${SECRET.slice(0, 9)}\r\n${SECRET.slice(9)}`,
    ]) {
      const redacted = redact(`value: ${form}.`);
      expect(redacted).toBe(`value: ${REDACTED}.`);
    }
  });

  it('leaves ordinary output alone: base64 and hex without the secret, and a secret shorter than 8', () => {
    const noise = `${randomBytes(3000).toString('base64')}\n${randomBytes(3000).toString('hex')}\nplain words`;
    expect(redact(noise)).toBe(noise);
    const short = compileMatchers({ secrets: ['abc1234'] });
    const encoded = `${Buffer.from('xx abc1234 yy').toString('base64')} ${Buffer.from('abc1234').toString('hex')} abc1234`;
    expect(redactText(encoded, short)).toBe(encoded);
  });

  it('streams: an encoded secret split across chunks at every position never comes out whole', () => {
    const encoded = Buffer.from(`token=${SECRET};`).toString('base64');
    const text = `start ${wrap(encoded, 20)} end`;
    for (let cut = 1; cut < text.length; cut += 1) {
      const stream = new StreamRedactor(matchers);
      const out = stream.push(text.slice(0, cut)) + stream.push(text.slice(cut)) + stream.flush();
      expect(readsBack(out), `cut at ${cut}`).toBe(false);
      expect(out.startsWith('start ')).toBe(true);
      expect(out.endsWith(' end')).toBe(true);
    }
  });

  it('redacts a megabyte of output in one pass (twelve secrets, each in seven forms)', () => {
    const secrets = Array.from({ length: 12 }, () => `sk-proj-${randomBytes(60).toString('base64url')}`);
    const many = compileMatchers({ secrets });
    const chunk = `${randomBytes(3000).toString('base64')}\n${'the quick brown fox: 0123 abcdef\n'.repeat(30)}`;
    const inside = Buffer.from(`"${secrets[3] ?? ''}"`).toString('base64');
    const text = `${chunk.repeat(Math.ceil(2 ** 20 / chunk.length))}${inside}`;
    const started = performance.now();
    const redacted = redactText(text, many);
    const elapsed = performance.now() - started;
    expect(redacted.slice(-200)).toContain(REDACTED);
    expect(readsBack(redacted.slice(-200), secrets[3])).toBe(false);
    // Measured ~15 ms on the 2-core CI box; a quadratic or per-position matcher takes seconds.
    expect(elapsed).toBeLessThan(1500);
  });
});
