/**
 * A bounded run of the torture suite inside `npm test` (the full one is `npm run torture`), one part per
 * file so the parts run side by side: 20 `kill -9`s at random moments of slow turns (some during
 * compactions). Every figure that must be 0 is asserted to be 0.
 */
import { describe, expect, it } from 'vitest';
import { runKills } from './kills.js';
import { SEED } from './seed.js';

describe('torture (bounded)', () => {
  it('20 kill -9s at random moments: nothing acknowledged lost, every conversation usable, every history consistent', async () => {
    const figures = await runKills({ kills: 20, seed: SEED });
    expect(figures.kills).toBe(20);
    expect(figures.firstFailure).toBeUndefined();
    expect(figures.firstUnusable).toBeUndefined();
    expect(figures).toMatchObject({ acknowledgedLost: 0, unusable: 0, inconsistentRequests: 0 });
  }, 300_000);
});
