import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyPatch, PatchError } from '../../../../src/core/tools/apply-patch/apply-patch.js';

describe('apply_patch', () => {
  let dir: string;
  const at = (path: string): string => join(dir, path);
  const apply = (patch: string) => applyPatch(patch, at);
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cody-patch-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('adds, deletes, updates with context hunks and moves, in one patch', async () => {
    await writeFile(at('a.txt'), 'one\ntwo\nthree\nfour\nfive\nsix\nseven\n');
    await writeFile(at('gone.txt'), 'bye\n');
    await writeFile(at('old.txt'), 'x\ny\n');
    const result = await apply(
      [
        '*** Begin Patch',
        '*** Add File: sub/new.txt',
        '+hello',
        '+world',
        '*** Delete File: gone.txt',
        '*** Update File: a.txt',
        '@@',
        ' one',
        '-two',
        '+TWO',
        ' three',
        '@@ five',
        '-six',
        '+SIX',
        '+six and a half',
        '*** Update File: old.txt',
        '*** Move to: moved/new-name.txt',
        '@@',
        ' x',
        '-y',
        '+z',
        '*** End Patch',
      ].join('\n'),
    );
    expect(result.summary).toEqual(['A sub/new.txt', 'D gone.txt', 'M a.txt', 'M moved/new-name.txt']);
    expect(await readFile(at('sub/new.txt'), 'utf8')).toBe('hello\nworld\n');
    expect(existsSync(at('gone.txt'))).toBe(false);
    expect(await readFile(at('a.txt'), 'utf8')).toBe(
      'one\nTWO\nthree\nfour\nfive\nSIX\nsix and a half\nseven\n',
    );
    expect(existsSync(at('old.txt'))).toBe(false);
    expect(await readFile(at('moved/new-name.txt'), 'utf8')).toBe('x\nz\n');
  });

  it('tolerates trailing-whitespace differences in context and an apply_patch heredoc wrapper', async () => {
    await writeFile(at('w.txt'), 'keep   \nold\n');
    await apply(
      "apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: w.txt\n keep\n-old\n+new\n*** End Patch\nEOF",
    );
    expect(await readFile(at('w.txt'), 'utf8')).toBe('keep   \nnew\n');
  });

  const failures: Array<[string, string[], RegExp]> = [
    ['context not found', ['*** Update File: a.txt', ' nope', '-two', '+2'], /Context not found in a\.txt/],
    [
      'adding a file that exists',
      ['*** Add File: a.txt', '+x'],
      /Cannot add a\.txt: the file already exists/,
    ],
    ['deleting a missing file', ['*** Delete File: missing.txt'], /Cannot delete missing\.txt: no such file/],
    ['updating a missing file', ['*** Update File: missing.txt', '-a', '+b'], /Cannot update missing\.txt/],
    [
      'a bad hunk line',
      ['*** Update File: a.txt', '?what'],
      /Line 5: a hunk line must start with ' ', '-' or '\+', got '\?what'/,
    ],
    [
      'an unknown header',
      ['*** Frobnicate: a.txt'],
      /Line 4: expected '\*\*\* Add File:'.*got '\*\*\* Frobnicate: a\.txt'/,
    ],
  ];
  for (const [name, body, message] of failures) {
    it(`reports ${name} precisely and changes nothing`, async () => {
      await writeFile(at('a.txt'), 'one\ntwo\n');
      // A valid operation first: it must not be applied when a later one fails.
      const patch = [
        '*** Begin Patch',
        '*** Add File: first.txt',
        '+created?',
        ...body,
        '*** End Patch',
      ].join('\n');
      await expect(apply(patch)).rejects.toThrow(message);
      await expect(apply(patch)).rejects.toBeInstanceOf(PatchError);
      expect(existsSync(at('first.txt'))).toBe(false);
      expect(await readFile(at('a.txt'), 'utf8')).toBe('one\ntwo\n');
    });
  }

  it('refuses a patch without the envelope', async () => {
    await expect(apply('*** Add File: x\n+y')).rejects.toThrow(/must start with '\*\*\* Begin Patch'/);
  });

  it('moving onto an existing file fails before anything is written', async () => {
    await writeFile(at('a.txt'), 'a\n');
    await mkdir(at('d'));
    await writeFile(at('d/b.txt'), 'b\n');
    await expect(
      apply('*** Begin Patch\n*** Update File: a.txt\n*** Move to: d/b.txt\n-a\n+A\n*** End Patch'),
    ).rejects.toThrow(/destination exists/);
    expect(await readFile(at('a.txt'), 'utf8')).toBe('a\n');
    expect(await readFile(at('d/b.txt'), 'utf8')).toBe('b\n');
  });
});
