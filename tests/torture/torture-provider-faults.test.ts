/**
 * A bounded run of the torture suite inside `npm test` (the full one is `npm run torture`), one part per
 * file so the parts run side by side: every provider fault on the four APIs. Every figure that must be 0
 * is asserted to be 0.
 */
import { describe, expect, it } from 'vitest';
import { runProviderFaults } from './provider-faults.js';

describe('torture (bounded)', () => {
  it('provider faults on the four APIs: right exit code, the reply exactly once, a consistent rollout', async () => {
    const figures = await runProviderFaults();
    expect(figures.scenarios).toBe(28);
    expect(figures.firstFailure).toBeUndefined();
  }, 240_000);
});
