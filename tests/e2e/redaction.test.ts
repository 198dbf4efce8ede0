/**
 * Secrets in streamed text over the front ends that spawn: `cody serve` (SSE) and `cody chat --json` /
 * stream-json. A key Cody reads and the server token, split across deltas at a few positions, never
 * join back; an environment variable named like a key (`SORT_KEY=createdAt`) renames no JSON field.
 * (Every position on every wire API runs in-process: tests/unit/core/redact/redaction.test.ts.)
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventsOf } from '../server/sse-client.js';
import { createHarness, FAKE_KEYS, type Harness } from './harness.js';
import { startServe, type ServeProcess } from './serve-harness.js';

const KEY = FAKE_KEYS.OPENAI_API_KEY;
const REDACTED = '[REDACTED]';

/** `before secret after` cut at `positions` inside the secret (two or three deltas). */
function cut(before: string, secret: string, after: string, positions: number[]): string[] {
  const text = `${before}${secret}${after}`;
  const points = positions.map((position) => before.length + position);
  return [0, ...points].map((start, index) => text.slice(start, [...points, text.length][index]));
}

/** A few cuts: right after the first character, in the middle, before the last, and three-way. */
function someCuts(secret: string): number[][] {
  const middle = Math.floor(secret.length / 2);
  return [[1], [middle], [secret.length - 1], [3, middle], [middle, middle + 1]];
}

let harness: Harness;
let server: ServeProcess | undefined;

beforeEach(async () => {
  harness = await createHarness();
  await harness.writeConfig({ provider: 'openai', api: 'chat', model: 'gpt-4o-mini' });
});
afterEach(async () => {
  await server?.stop('SIGKILL');
  server = undefined;
  await harness.close();
});

describe('secrets in streamed text', () => {
  it('cody serve: split keys and the token never join back in SSE; SORT_KEY renames no JSON key', async () => {
    harness.env.SORT_KEY = 'createdAt';
    server = await startServe(harness);
    const { api, token } = server;
    const created = await api.request('POST', '/conversations', { provider: 'openai', api: 'chat' });
    expect(created.json).toHaveProperty('createdAt');
    const id = String(created.json.id);
    const stream = await api.events(`/conversations/${id}/events`);
    const replies = [
      ...someCuts(KEY).map((positions) => cut('repeat this: ', KEY, ' ok', positions)),
      ...someCuts(token).map((positions) => cut('repeat this: ', token, ' ok', positions)),
    ];
    for (const textDeltas of replies) {
      harness.server.enqueue({ type: 'reply', textDeltas });
      expect((await api.request('POST', `/conversations/${id}/messages`, { text: 'repeat' })).status).toBe(
        202,
      );
      const events = eventsOf(await stream.until((event) => event.type === 'turn-complete'));
      const deltas = events.filter((event) => event.type === 'text-delta');
      expect(deltas.length).toBeGreaterThan(1);
      expect(deltas.map((event) => event.text).join('')).toBe(`repeat this: ${REDACTED} ok`);
    }
    const transcript = await api.request('GET', `/conversations/${id}/messages`);
    const listed = await api.request('GET', '/conversations');
    const everything = stream.raw() + transcript.text + listed.text;
    expect(everything).not.toContain(KEY);
    expect(everything).not.toContain(token);
    // Values are replaced, never keys: the summaries keep `createdAt`, and no `[redacted]` field appears.
    expect(JSON.stringify(listed.json)).toContain('"createdAt":');
    expect(everything).not.toMatch(/"\[redacted\]"\s*:/i);
    const rollout = await readFile(join(harness.env.CODY_HOME ?? '', 'conversations', `${id}.jsonl`), 'utf8');
    expect(rollout).not.toContain(KEY);
    expect(rollout).not.toContain(token);
    stream.close();
  });

  it('cody chat (plain, --json, stream-json): a split key never joins back', async () => {
    for (const positions of someCuts(KEY).slice(0, 3)) {
      harness.server.enqueue({ type: 'reply', textDeltas: cut('repeat this: ', KEY, ' ok', positions) });
      const run = await harness.cody(['chat', '--output-format', 'stream-json', 'repeat']);
      expect(run.code).toBe(0);
      const events = run.stdout
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as { type: string; text?: string; reply?: string });
      const deltas = events.filter((event) => event.type === 'text-delta');
      expect(deltas.length).toBeGreaterThan(1);
      expect(deltas.map((event) => event.text).join('')).toBe(`repeat this: ${REDACTED} ok`);
      expect(events.at(-1)).toMatchObject({ type: 'result', reply: `repeat this: ${REDACTED} ok` });
      expect(run.stdout + run.stderr).not.toContain(KEY);
    }
    harness.server.enqueue({ type: 'reply', textDeltas: cut('repeat this: ', KEY, ' ok', [4, 9]) });
    const run = await harness.cody(['chat', '--json', 'repeat']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ reply: `repeat this: ${REDACTED} ok` });
    expect(run.stdout + run.stderr).not.toContain(KEY);
    harness.server.enqueue({ type: 'reply', textDeltas: cut('repeat this: ', KEY, ' ok', [7]) });
    const plain = await harness.cody(['chat', 'repeat']);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toBe(`repeat this: ${REDACTED} ok\n`);
    expect(plain.stderr).not.toContain(KEY);
  });
});
