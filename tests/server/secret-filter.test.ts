/** The server's last guard (secret-filter.ts): JSON answers and SSE frames, with a list read again. */
import { describe, expect, it } from 'vitest';
import { SecretFilter } from '../../src/server/secret-filter.js';

describe('SecretFilter', () => {
  it('redacts the fixed secrets and, once refreshed, those the source names; keys are kept', async () => {
    let stored: string[] = [];
    const filter = new SecretFilter(['serve-token-1234567890'], () => Promise.resolve(stored));
    await filter.refresh();
    const body = { 'serve-token-1234567890': 'serve-token-1234567890', text: 'stored-key-abcdefgh' };
    expect(filter.json(body)).toEqual({
      'serve-token-1234567890': '[REDACTED]',
      text: 'stored-key-abcdefgh',
    });
    stored = ['stored-key-abcdefgh'];
    await filter.refresh();
    expect(filter.json(body).text).toBe('[REDACTED]');
    expect(filter.frame('{"type":"text-delta","text":"a stored-key-abcdefgh b"}')).toBe(
      '{"type":"text-delta","text":"a [REDACTED] b"}',
    );
  });

  it('finds a secret in a frame as JSON writes it (quotes and backslashes escaped)', async () => {
    const secret = 'we"ird\\secret-value';
    const filter = new SecretFilter([], () => Promise.resolve([secret]));
    await filter.refresh();
    const frame = JSON.stringify({ type: 'text-delta', text: `x ${secret} y` });
    expect(JSON.parse(filter.frame(frame))).toEqual({ type: 'text-delta', text: 'x [REDACTED] y' });
  });

  it('keeps the last list when the source cannot be read', async () => {
    let fail = false;
    const filter = new SecretFilter([], () =>
      fail ? Promise.reject(new Error('EACCES')) : Promise.resolve(['signin-token-zyxwvut']),
    );
    await filter.refresh();
    fail = true;
    await filter.refresh();
    expect(filter.frame('"signin-token-zyxwvut"')).toBe('"[REDACTED]"');
  });
});
