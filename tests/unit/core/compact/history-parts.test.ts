import { describe, expect, it } from 'vitest';
import type { ResponseItem } from '../../../../src/protocol/index.js';
import {
  buildReplacementHistory,
  collectGhostSnapshots,
  collectInitialContext,
  isSummaryMessage,
  SUMMARY_PREFIX,
  summaryMessage,
} from '../../../../src/core/compact/index.js';
import { assistant, call, developer, ghost, output, system, textOf, user } from './history-builders.js';

describe('isSummaryMessage', () => {
  it.each<[string, ResponseItem, boolean]>([
    ['a summary message', summaryMessage('notes'), true],
    ['a user message starting with the prefix', user(`${SUMMARY_PREFIX} x`), true],
    ['a plain user message', user('hello'), false],
    ['a user message quoting the prefix later', user(`quote: ${SUMMARY_PREFIX}`), false],
    ['an assistant message starting with the prefix', assistant(SUMMARY_PREFIX), false],
    ['a developer message starting with the prefix', developer(SUMMARY_PREFIX), false],
    ['a tool output', output('1', SUMMARY_PREFIX), false],
  ])('%s → %s', (_name, item, expected) => {
    expect(isSummaryMessage(item)).toBe(expected);
  });
});

describe('collectInitialContext', () => {
  const s = system('s');
  const d = developer('d');
  it.each<[string, ResponseItem[], ResponseItem[]]>([
    ['empty history', [], []],
    ['leading system and developer messages', [s, d, user('u'), developer('later')], [s, d]],
    ['nothing when the history starts with a user message', [user('u'), s], []],
    ['nothing when it starts with a ghost', [ghost('g'), s], []],
    ['a history of instructions only', [s, d], [s, d]],
  ])('%s', (_name, history, expected) => {
    expect(collectInitialContext(history)).toEqual(expected);
  });
});

describe('collectGhostSnapshots', () => {
  it('collects every ghost snapshot in order', () => {
    const g1 = ghost('1');
    const g2 = ghost('2');
    expect(collectGhostSnapshots([g1, user('u'), call('c'), output('c'), g2])).toEqual([g1, g2]);
    expect(collectGhostSnapshots([user('u')])).toEqual([]);
  });
});

describe('buildReplacementHistory', () => {
  it('is the instructions, the kept messages, the summary, then the ghosts', () => {
    const s = system('s');
    const kept = [user('one'), user('two')];
    const g = ghost('g');
    const history = buildReplacementHistory({
      initialContext: [s],
      keptUserMessages: kept,
      summary: 'the notes',
      ghostSnapshots: [g],
    });
    expect(history).toHaveLength(5);
    expect(history.slice(0, 3)).toEqual([s, ...kept]);
    expect(textOf(history[3])).toBe(`${SUMMARY_PREFIX}\nthe notes`);
    expect(history[3]).toMatchObject({ type: 'message', role: 'user' });
    expect(isSummaryMessage(history[3] as ResponseItem)).toBe(true);
    expect(history[4]).toBe(g);
  });

  it('holds just the summary when there is nothing else', () => {
    const history = buildReplacementHistory({
      initialContext: [],
      keptUserMessages: [],
      summary: '(summary unavailable)',
      ghostSnapshots: [],
    });
    expect(history.map(textOf)).toEqual([`${SUMMARY_PREFIX}\n(summary unavailable)`]);
  });
});
