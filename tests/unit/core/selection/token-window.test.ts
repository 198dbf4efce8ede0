/** A context window in a sentence: `an 8,192-token`, never `a 8192-token` (issue 29). */
import { describe, expect, it } from 'vitest';
import { tokenWindowPhrase } from '../../../../src/core/selection/index.js';

describe('tokenWindowPhrase', () => {
  it.each([
    [8_192, 'an 8,192-token'],
    [128_000, 'a 128,000-token'],
    [11_000, 'an 11,000-token'],
    [18_432, 'an 18,432-token'],
    [80_000, 'an 80,000-token'],
    [800, 'an 800-token'],
    [1_048_576, 'a 1,048,576-token'],
    [4_096, 'a 4,096-token'],
    [110_000, 'a 110,000-token'],
  ])('%i → %s', (tokens, phrase) => {
    expect(tokenWindowPhrase(tokens)).toBe(phrase);
  });
});
