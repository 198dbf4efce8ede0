/**
 * A bounded run of the torture suite inside `npm test` (the full one is `npm run torture`), one part per
 * file so the parts run side by side: every hostile config. Every figure that must be 0 is asserted to be
 * 0.
 */
import { describe, expect, it } from 'vitest';
import { runHostileConfigs } from './hostile-config.js';

describe('torture (bounded)', () => {
  it('hostile config files are refused with exit 2 in one line, never a hang', async () => {
    const figures = await runHostileConfigs();
    expect(figures.firstFailure).toBeUndefined();
    expect(figures).toMatchObject({ hangs: 0, exit70: 0, stackTraces: 0, notRefused: 0 });
  }, 240_000);
});
