/**
 * A message of 20 MB without a single break (issue 7.4): exact token counting used to be quadratic in
 * such a run, so `cody chat` computed for 17 minutes at full CPU before sending anything. Now the turn
 * compacts and answers in seconds, nothing sent is larger than the window, and the rollout keeps the
 * whole message. The shell's `timeout` turns a regression into a failure instead of a hung suite.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness, linesOfType } from './harness.js';

const SIZE = 20_000_000;

describe('a 20 MB message (e2e)', () => {
  let harness: Harness;
  beforeEach(async () => {
    harness = await createHarness();
  });
  afterEach(async () => {
    await harness.close();
  });

  it.each([
    ['openai', 'gpt-4o'],
    ['anthropic', 'claude-sonnet-4-5'],
  ])(
    'is kept whole on disk, compacted and answered on %s',
    async (provider, model) => {
      const id = (await harness.cody(['new', '--provider', provider, '--model', model])).stdout.trim();
      const started = Date.now();
      const run = await harness.shell(
        `head -c ${SIZE} /dev/zero | tr '\\0' H | timeout -s KILL 25 $CODY chat; echo "exit $?" >&2`,
      );
      expect(run.stderr).toMatch(/exit 0\n$/);
      expect(Date.now() - started).toBeLessThan(25_000);
      expect(run.stdout).toMatch(/^echo: /);

      const requests = harness.server.modelRequests();
      // Nothing but the new message to compact: it is cut to fit (no summary request), and it is the
      // last thing the turn's request sends.
      expect(requests.length).toBeGreaterThanOrEqual(1);
      const lastSent = JSON.stringify((requests.at(-1)?.body as { messages?: unknown[] }).messages?.at(-1));
      expect(lastSent).toMatch(/"user"/);
      expect(lastSent).toMatch(/HHHH.*tokens truncated.*HHHH/);
      for (const request of requests) expect(JSON.stringify(request.body).length).toBeLessThan(1_500_000);

      const file = join(harness.env.CODY_HOME ?? '', 'conversations', `${id}.jsonl`);
      expect((await stat(file)).size).toBeGreaterThan(SIZE);
      const lines = await harness.rollout(id);
      const users = linesOfType(lines, 'response_item').filter(
        (line) => line.payload.type === 'message' && line.payload.role === 'user',
      );
      const original = users.find((line) => JSON.stringify(line.payload).length > SIZE);
      expect(original).toBeDefined();
      expect(linesOfType(lines, 'compacted')).toHaveLength(1);

      const next = await harness.cody(['chat', 'and now?']);
      expect(next.code, next.stderr).toBe(0);
      expect(next.stdout).toBe('echo: and now?\n');
    },
    60_000,
  );
});
