/**
 * A bounded run of the torture suite inside `npm test` (the full one is `npm run torture`), one part per
 * file so the parts run side by side: the full / read-only CODY_HOME when running as root. Every figure
 * that must be 0 is asserted to be 0.
 */
import { describe, expect, it } from 'vitest';
import { runStorage } from './storage.js';

describe('torture (bounded)', () => {
  it('a full or read-only CODY_HOME never sends an unsaved message (root only)', async () => {
    const figures = await runStorage();
    if (figures.skipped) {
      process.stderr.write(`torture: ${figures.skipped}\n`);
      return;
    }
    expect(figures.firstFailure).toBeUndefined();
  }, 120_000);
});
