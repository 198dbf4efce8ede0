/** Edits shown before approval (issue 21): a numbered unified diff, never the patch envelope. */
import { describe, expect, it } from 'vitest';
import { editDiff, patchDiff, writeDiff } from '../../../src/cli/diff-view.js';
import { titleReason } from '../../../src/cli/approval-question.js';

const files: Record<string, string> = { 'app.js': 'one\ntwo\nthree\nfour\nfive\nsix\n' };
const read = (path: string): string | undefined => files[path];

describe('diff view', () => {
  it('numbers a patch hunk from where its lines are in the file, with no envelope', () => {
    const patch = [
      '*** Begin Patch',
      '*** Update File: app.js',
      '@@',
      ' three',
      '-four',
      '+FOUR',
      '+4b',
      '*** End Patch',
    ];
    expect(patchDiff(patch.join('\n'), read)).toEqual([
      '--- a/app.js',
      '+++ b/app.js',
      '@@ -3,2 +3,3 @@',
      '3   three',
      '4 - four',
      '4 + FOUR',
      '5 + 4b',
    ]);
  });

  it('numbers a new file from 1 and names a deleted one', () => {
    const patch = '*** Begin Patch\n*** Add File: new.txt\n+a\n+b\n*** Delete File: old.txt\n*** End Patch';
    expect(patchDiff(patch, read)).toEqual([
      '--- /dev/null',
      '+++ b/new.txt',
      '@@ -0,0 +1,2 @@',
      '1 + a',
      '2 + b',
      '--- a/old.txt',
      '+++ /dev/null',
      '(the file is deleted)',
    ]);
  });

  it('shows an edit with two lines of context either side', () => {
    expect(editDiff({ path: 'app.js', old_text: 'four', new_text: 'FOUR' }, read)).toEqual([
      '--- a/app.js',
      '+++ b/app.js',
      '@@ -2,5 +2,5 @@',
      '2   two',
      '3   three',
      '4 - four',
      '4 + FOUR',
      '5   five',
      '6   six',
    ]);
  });

  it('numbers a written file: a new one from 1, a replaced one as the lines that change (issue 29)', () => {
    expect(writeDiff({ path: 'new.txt', content: 'a\nb\n' }, read)).toEqual([
      '--- /dev/null',
      '+++ b/new.txt',
      '@@ -0,0 +1,2 @@',
      '1 + a',
      '2 + b',
    ]);
    // One region changes: the rest is left out but two lines either side.
    expect(writeDiff({ path: 'app.js', content: 'one\ntwo\nthree\nFOUR\n4b\nfive\nsix\n' }, read)).toEqual([
      '--- a/app.js',
      '+++ b/app.js',
      '@@ -2,5 +2,6 @@',
      '2   two',
      '3   three',
      '4 - four',
      '4 + FOUR',
      '5 + 4b',
      '6   five',
      '7   six',
    ]);
  });

  it('approval titles do not repeat the command', () => {
    expect(titleReason('run: ls -la', '$ ls -la')).toBe('');
    expect(titleReason('runs in /tmp, outside the workspace: ls -la', '$ ls -la')).toBe(
      'runs in /tmp, outside the workspace',
    );
    expect(titleReason('apply a patch to app.js', 'patch app.js')).toBe('');
    expect(titleReason('deletes old.txt: apply a patch to old.txt', 'patch old.txt (deleted)')).toBe(
      'deletes old.txt',
    );
  });
});
