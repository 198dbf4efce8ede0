/**
 * The repository is self-contained: no test, benchmark or source file builds a path that leaves the
 * checkout (issue 7.1). `.ci/run` proves it end to end by running the suite from a lone copy; this
 * test names the offending line the moment one is written.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const REPO_ROOT = resolve(import.meta.dirname, '..', '..', '..');
const SCANNED = ['src', 'tests', 'bench', 'bin'];
const SKIPPED = new Set(['fixtures', 'node_modules', 'dist']);

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return SKIPPED.has(entry.name) ? [] : sourceFiles(path);
    return /\.(ts|js|mjs|cjs)$/.test(entry.name) ? [path] : [];
  });
}

/** Paths built as `join|resolve(import.meta.dirname, 'a', 'b/c', …)` from string literals only. */
function literalPaths(text: string): { line: number; parts: string[] }[] {
  const found: { line: number; parts: string[] }[] = [];
  const call = /\b(?:join|resolve)\(\s*import\.meta\.dirname\s*((?:,\s*'[^']*'\s*)+)\)/g;
  for (const match of text.matchAll(call)) {
    const parts = [...(match[1] ?? '').matchAll(/'([^']*)'/g)].map((part) => part[1] ?? '');
    found.push({ line: text.slice(0, match.index).split('\n').length, parts });
  }
  return found;
}

function within(path: string): boolean {
  const inside = relative(REPO_ROOT, path);
  return inside === '' || (!inside.startsWith('..') && !inside.startsWith(sep));
}

/** Inside the checkout from the file as written, or from its compiled copy in dist/ (tsconfig.build.json). */
function insideRepo(file: string, parts: string[]): boolean {
  const path = relative(REPO_ROOT, file);
  const compiled = path.startsWith(`src${sep}`) || path.startsWith(join('tests', 'fake-provider') + sep);
  const candidates = [file, ...(compiled ? [join(REPO_ROOT, 'dist', path)] : [])];
  return candidates.some((candidate) => within(resolve(dirname(candidate), ...parts)));
}

describe('the repository is self-contained', () => {
  const files = SCANNED.flatMap((top) => sourceFiles(join(REPO_ROOT, top)));

  it('scans the code it should', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files).toContain(join(REPO_ROOT, 'tests', 'providers', 'recordings.ts'));
  });

  it('builds no literal path that leaves the checkout', () => {
    const escapes = files.flatMap((file) =>
      literalPaths(readFileSync(file, 'utf8'))
        .filter(({ parts }) => !insideRepo(file, parts))
        .map(({ line, parts }) => `${relative(REPO_ROOT, file)}:${line} → ${parts.join('/')}`),
    );
    expect(escapes).toEqual([]);
  });

  it('names no directory that exists only beside a checkout', () => {
    // Built from pieces so this file does not match itself.
    const data = ['codex', 'rollouts|provider', 'recordings'].join('-');
    const outside = new RegExp(`/work/${'shared'}|shared/(?:${data})|'shared',\\s*'(?:${data})'`);
    const hits = files
      .filter((file) => outside.test(readFileSync(file, 'utf8')))
      .map((file) => relative(REPO_ROOT, file));
    expect(hits).toEqual([]);
  });

  it('finds an escaping path when there is one', () => {
    const file = join(REPO_ROOT, 'tests', 'x', 'y.ts');
    const [escape] = literalPaths("const d = resolve(import.meta.dirname, '../../../elsewhere/data');");
    const [inside] = literalPaths("const d = join(import.meta.dirname, '..', '..', 'bench', 'corpus');");
    expect(escape && insideRepo(file, escape.parts)).toBe(false);
    expect(inside && insideRepo(file, inside.parts)).toBe(true);
  });
});
