import { describe, expect, it } from 'vitest';
import { buildSummaryRequest, COMPACTION_PROMPT } from '../../../../src/core/compact/index.js';
import { call, ghost, system, textOf, user } from './history-builders.js';

describe('COMPACTION_PROMPT', () => {
  it.each([
    ['the goal', /goal/i],
    ['decisions', /decisions/i],
    ['constraints and preferences', /constraints and preferences/i],
    ['files and identifiers', /files and identifiers/i],
    ['what was tried and failed', /tried and failed/i],
    ['the current state', /current state/i],
    ['next steps', /next steps/i],
    ['a hand-over to another engineer', /hand(ed)? over to another engineer/i],
    ['brevity', /concise/i],
  ])('asks for %s', (_name, pattern) => {
    expect(COMPACTION_PROMPT).toMatch(pattern);
  });
});

describe('buildSummaryRequest', () => {
  const s = system('instructions');
  const u = user('do the thing');

  it('is the normalised history followed by the prompt as the last user message', () => {
    const request = buildSummaryRequest([s, u, call('c1'), ghost('g')]);
    expect(request.slice(0, 3)).toEqual([s, u, call('c1')]);
    // the call without output got its synthetic output; the ghost is gone
    expect(request[3]).toEqual({ type: 'function_call_output', call_id: 'c1', output: 'aborted' });
    expect(request).toHaveLength(5);
    expect(request[4]).toMatchObject({ type: 'message', role: 'user' });
    expect(textOf(request[4])).toBe(COMPACTION_PROMPT);
  });

  it.each<[string, string | undefined, string]>([
    ['adds the focus', 'the API keys', `${COMPACTION_PROMPT}\nPay particular attention to: the API keys`],
    ['trims the focus', '  retries  ', `${COMPACTION_PROMPT}\nPay particular attention to: retries`],
    ['ignores an empty focus', '   ', COMPACTION_PROMPT],
    ['ignores a missing focus', undefined, COMPACTION_PROMPT],
  ])('%s', (_name, focus, expected) => {
    expect(textOf(buildSummaryRequest([u], focus).at(-1))).toBe(expected);
  });

  it('works on an empty history', () => {
    expect(buildSummaryRequest([]).map(textOf)).toEqual([COMPACTION_PROMPT]);
  });
});
