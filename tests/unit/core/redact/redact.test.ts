import { describe, expect, it } from 'vitest';
import { createRedactor, redactDeep, REDACTED } from '../../../../src/core/redact/redact.js';

// Built by concatenation so this file itself holds no literal key shape.
const shapes: Record<string, string> = {
  openai: `sk-${'A1b2C3d4E5'.repeat(4)}T3BlbkFJ`,
  'openai project': `sk-proj-${'Zx9_Yw8-Vu'.repeat(5)}`,
  anthropic: `sk-ant-api03-${'q1W2e3R4t5'.repeat(8)}-AA`,
  google: `AIza${'SyD3f4G5h6J7k8L9z0X1c2V3b4N5m6Q7w8E'.slice(0, 35)}`,
  'github classic': `ghp_${'a1B2c3D4e5F6'.repeat(3)}`,
  'github fine-grained': `github_pat_${'11ABCDEFG0'.repeat(3)}_${'x'.repeat(20)}`,
  'aws access key id': `AKIA${'IOSFODNN7EXAMPLE'}`,
};

describe('redaction', () => {
  const redact = createRedactor();
  for (const [name, key] of Object.entries(shapes)) {
    it(`replaces a ${name} key wherever it stands in text`, () => {
      const text = `before ${key} after, and "${key}" quoted`;
      const result = redact(text);
      expect(result).not.toContain(key);
      expect(result).toBe(`before ${REDACTED} after, and "${REDACTED}" quoted`);
    });
  }

  it('replaces an AWS secret access key where it is labelled, keeping the label', () => {
    const secret = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
    expect(redact(`aws_secret_access_key = ${secret}`)).toBe(`aws_secret_access_key = ${REDACTED}`);
  });

  it('leaves ordinary prose, ids and short sk- words alone', () => {
    const text = 'the sk-ate park, id 0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b, AKIA is a word';
    expect(redact(text)).toBe(text);
  });

  it('applies the config patterns too, and every string of a nested value', () => {
    const custom = createRedactor(['corp-[0-9]{6}']);
    const value = { a: ['x corp-123456 y', { b: shapes.openai }], n: 3 };
    expect(redactDeep(value, custom)).toEqual({ a: [`x ${REDACTED} y`, { b: REDACTED }], n: 3 });
  });

  it('rejects an invalid config pattern with a clear error', () => {
    expect(() => createRedactor(['(unclosed'])).toThrow(
      /redact pattern '\(unclosed' is not a valid regular expression/,
    );
  });
});
