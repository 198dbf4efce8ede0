/**
 * A bounded run of the torture suite inside `npm test` (the full one is `npm run torture`), one part per
 * file so the parts run side by side: 20 concurrent writers and a short mixed run. Every figure that must
 * be 0 is asserted to be 0.
 */
import { describe, expect, it } from 'vitest';
import { runConcurrency } from './concurrency.js';
import { SEED } from './seed.js';

describe('torture (bounded)', () => {
  it('20 concurrent writers and a mixed run: no corrupt line, every message exactly once', async () => {
    const figures = await runConcurrency({ writers: 20, mixed: 18, seed: SEED });
    expect(figures).toMatchObject({ corruptLines: 0, notExactlyOnce: 0, failedCommands: 0 });
  }, 240_000);
});
