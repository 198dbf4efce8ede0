/**
 * Undo planning (issue 19): a path goes back to its content before the turn only while it still holds
 * what the turn left; a path changed since is kept (unless forced); files outside the change set are
 * never in the plan. Contents are `mode id` keys, as `git ls-tree` gives them.
 */
import { describe, expect, it } from 'vitest';
import { planRestore, type TreeEntries } from '../../../../src/core/undo/selective-restore.js';

const tree = (entries: Record<string, string>): TreeEntries =>
  new Map(Object.entries(entries).map(([path, id]) => [path, `100644 ${id}`]));

describe('planRestore', () => {
  // The turn edited a.txt (A0 → A1), created new.txt and deleted old.txt; app.js was not in it.
  const before = tree({ 'a.txt': 'A0', 'old.txt': 'O0', 'app.js': 'J0' });
  const after = tree({ 'a.txt': 'A1', 'new.txt': 'N1', 'app.js': 'J0' });
  const turn = { before, after, paths: ['a.txt', 'new.txt', 'old.txt'] };

  it('restores, removes and brings back what is still as the turn left it', () => {
    const plan = planRestore([turn], after, false);
    expect(plan.restored).toEqual(['a.txt', 'old.txt']);
    expect(plan.removed).toEqual(['new.txt']);
    expect(plan.kept).toEqual([]);
    expect([...plan.writes]).toEqual([
      ['a.txt', '100644 A0'],
      ['new.txt', null],
      ['old.txt', '100644 O0'],
    ]);
  });

  it('keeps every path changed since the turn and never plans a path outside the change set', () => {
    // The person edited a.txt and app.js, edited the created file, recreated the deleted one, and made
    // an untracked file of their own.
    const now = tree({ 'a.txt': 'A2', 'new.txt': 'N2', 'old.txt': 'O2', 'app.js': 'J2', 'mine.txt': 'M' });
    const plan = planRestore([turn], now, false);
    expect(plan.kept).toEqual(['a.txt', 'new.txt', 'old.txt']);
    expect(plan.writes.size).toBe(0);
  });

  it('a deleted created file and an already restored path need nothing', () => {
    const now = tree({ 'a.txt': 'A0', 'app.js': 'J0' });
    const plan = planRestore([turn], now, false);
    expect([...plan.writes]).toEqual([['old.txt', '100644 O0']]);
    expect(plan.kept).toEqual([]);
  });

  it('force restores the paths changed since, and says which', () => {
    const now = tree({ 'a.txt': 'A2', 'new.txt': 'N1', 'app.js': 'J2' });
    const plan = planRestore([turn], now, true);
    expect(plan.overwritten).toEqual(['a.txt']);
    expect([...plan.writes].sort()).toEqual([
      ['a.txt', '100644 A0'],
      ['new.txt', null],
      ['old.txt', '100644 O0'],
    ]);
    expect(plan.writes.has('app.js')).toBe(false);
  });

  it('several turns, newest first: each path goes back as far as its history allows', () => {
    // Turn 1: a.txt A0 → A1. The person then changed b.txt (B0 → B1) by hand. Turn 2: a.txt A1 → A2
    // and b.txt B1 → B2. Undoing both puts a.txt back to A0, b.txt to the person's B1 (turn 1 never
    // touched it).
    const first = {
      before: tree({ 'a.txt': 'A0', 'b.txt': 'B0' }),
      after: tree({ 'a.txt': 'A1', 'b.txt': 'B0' }),
      paths: ['a.txt'],
    };
    const second = {
      before: tree({ 'a.txt': 'A1', 'b.txt': 'B1' }),
      after: tree({ 'a.txt': 'A2', 'b.txt': 'B2' }),
      paths: ['a.txt', 'b.txt'],
    };
    const plan = planRestore([second, first], tree({ 'a.txt': 'A2', 'b.txt': 'B2' }), false);
    expect([...plan.writes].sort()).toEqual([
      ['a.txt', '100644 A0'],
      ['b.txt', '100644 B1'],
    ]);
  });

  it('a hand edit between two turns stops the older turn from taking the path further back', () => {
    // Turn 1: a.txt A0 → A1; the person: A1 → AX; turn 2: AX → A2.
    const first = { before: tree({ 'a.txt': 'A0' }), after: tree({ 'a.txt': 'A1' }), paths: ['a.txt'] };
    const second = { before: tree({ 'a.txt': 'AX' }), after: tree({ 'a.txt': 'A2' }), paths: ['a.txt'] };
    const plan = planRestore([second, first], tree({ 'a.txt': 'A2' }), false);
    expect([...plan.writes]).toEqual([['a.txt', '100644 AX']]);
    expect(plan.kept).toEqual([]);
  });

  it('a mode change alone is a change', () => {
    const now = new Map([['a.txt', '100755 A1']]);
    expect(planRestore([{ ...turn, paths: ['a.txt'] }], now, false).kept).toEqual(['a.txt']);
  });
});
