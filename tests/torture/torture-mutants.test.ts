/**
 * A bounded run of the torture suite inside `npm test` (the full one is `npm run torture`), one part per
 * file so the parts run side by side: 40 mutated rollouts × 5 commands. Every figure that must be 0 is
 * asserted to be 0.
 */
import { describe, expect, it } from 'vitest';
import { runMutants } from './mutants.js';
import { SEED } from './seed.js';

describe('torture (bounded)', () => {
  it('40 mutated rollouts × 5 commands: no exit 70, stack trace, hang or unexpected change', async () => {
    const figures = await runMutants({ mutants: 40, seed: SEED, hugeBytes: () => 10_000_000 });
    expect(figures.runs).toBe(200);
    expect(figures.firstFailure).toBeUndefined();
    expect(figures).toMatchObject({ exit70: 0, stackTraces: 0, hangs: 0, unexpectedChanges: 0 });
  }, 300_000);
});
