/**
 * `grep` and `glob` over the workspace, respecting .gitignore: the system `rg` when it is on PATH,
 * otherwise git's own file list (`git ls-files --cached --others --exclude-standard`) or a directory walk,
 * matched in JavaScript. Nothing is downloaded.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { findOnPath } from './find-on-path.js';
import { findGitRoot } from './workspace.js';

/** Most matching lines (grep) or paths (glob) returned; the rest are counted. */
export const SEARCH_RESULT_LIMIT = 500;
/** Files larger than this are skipped by the JavaScript grep. */
const MAX_GREP_FILE_BYTES = 4_000_000;
/** Directories never walked when the tree is not a git work tree. */
const SKIPPED_DIRECTORIES = new Set(['.git', 'node_modules']);

let ripgrep: string | null | undefined;

/** The path of `rg` on PATH, looked up once. */
export function findRipgrep(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (ripgrep === undefined) ripgrep = findOnPath('rg', env) ?? null;
  return ripgrep ?? undefined;
}

export interface GrepRequest {
  pattern: string;
  /** Directory (or file) searched, absolute. */
  searchPath: string;
  /** Paths in results are shown relative to this. */
  displayRoot: string;
  glob?: string;
  /** Use this rg binary; undefined → the JavaScript fallback. */
  rg?: string;
  signal?: AbortSignal;
}

export async function grep(request: GrepRequest): Promise<string> {
  const regex = compile(request.pattern);
  if (request.rg) return grepWithRipgrep(request, request.rg);
  const files = await listFiles(request.searchPath);
  const matcher = request.glob ? globMatcher(request.glob) : undefined;
  const lines: string[] = [];
  let total = 0;
  for (const file of files) {
    if (request.signal?.aborted) break;
    const shown = relative(request.displayRoot, file) || file;
    if (matcher && !matcher(relative(request.searchPath, file) || shown)) continue;
    let text: string;
    try {
      if ((await stat(file)).size > MAX_GREP_FILE_BYTES) continue;
      const bytes = await readFile(file);
      if (bytes.subarray(0, 8000).includes(0)) continue;
      text = bytes.toString('utf8');
    } catch {
      continue;
    }
    text.split('\n').forEach((line, index) => {
      if (!regex.test(line)) return;
      total += 1;
      if (lines.length < SEARCH_RESULT_LIMIT) lines.push(`${shown}:${index + 1}:${line}`);
    });
  }
  return formatResults(lines, total, 'matches');
}

export async function glob(pattern: string, searchPath: string, displayRoot: string): Promise<string> {
  const matcher = globMatcher(pattern);
  const found = (await listFiles(searchPath)).filter((file) => matcher(relative(searchPath, file)));
  const shown = found.map((file) => relative(displayRoot, file) || file).sort();
  return formatResults(shown.slice(0, SEARCH_RESULT_LIMIT), shown.length, 'files');
}

function formatResults(lines: string[], total: number, noun: string): string {
  if (total === 0) return `No ${noun}.`;
  const more =
    total > lines.length ? `\n[${total - lines.length} more ${noun} not shown; narrow the search]` : '';
  return `${lines.join('\n')}${more}`;
}

function compile(pattern: string): RegExp {
  try {
    return new RegExp(pattern, 'u');
  } catch (error) {
    throw new Error(`invalid regular expression: ${(error as Error).message}`);
  }
}

function grepWithRipgrep(request: GrepRequest, rg: string): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const args = ['--line-number', '--no-heading', '--color', 'never', '--max-columns', '1000'];
    if (request.glob) args.push('--glob', request.glob);
    args.push('-e', request.pattern, '--', relative(request.displayRoot, request.searchPath) || '.');
    const child = spawn(rg, args, {
      cwd: request.displayRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(request.signal ? { signal: request.signal } : {}),
    });
    const lines: string[] = [];
    let total = 0;
    let buffered = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      buffered += chunk;
      const parts = buffered.split('\n');
      buffered = parts.pop() ?? '';
      for (const line of parts) {
        total += 1;
        if (lines.length < SEARCH_RESULT_LIMIT) lines.push(line.replace(/^\.\//, ''));
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 2 && total === 0) reject(new Error(stderr.trim().split('\n')[0] ?? 'rg failed'));
      else resolvePromise(formatResults(lines, total, 'matches'));
    });
  });
}

/** Files under `path` that git does not ignore (all files, minus .git and node_modules, outside git). */
export async function listFiles(path: string): Promise<string[]> {
  const info = await stat(path);
  if (!info.isDirectory()) return [path];
  const fromGit = await gitFiles(path);
  if (fromGit) return fromGit;
  const files: string[] = [];
  const walk = async (directory: string): Promise<void> => {
    for (const entry of await readdir(directory, { withFileTypes: true })) {
      const full = join(directory, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRECTORIES.has(entry.name)) await walk(full);
      } else if (entry.isFile()) files.push(full);
    }
  };
  await walk(path);
  return files.sort();
}

/** Cody's own git (the hardened runner): nothing the repository configures runs. */
async function gitFiles(directory: string): Promise<string[] | undefined> {
  const root = findGitRoot(directory);
  if (root === undefined) return undefined;
  const { git } = await import('../undo/git.js');
  let stdout: string;
  try {
    stdout = (
      await git(['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', '.'], {
        cwd: root,
        directory,
      })
    ).toString('utf8');
  } catch {
    return undefined;
  }
  const files = stdout
    .split('\0')
    .filter((name) => name !== '')
    .map((name) => join(directory, name))
    .filter((file) => existsSync(file));
  return [...new Set(files)].sort();
}

/**
 * A matcher for a glob over `/`-separated relative paths: `**` any number of directories, `*` and `?`
 * within one name, `[…]` classes, `{a,b}` alternatives. A pattern without `/` matches the file name at
 * any depth (like rg's and .gitignore's convention).
 */
export function globMatcher(pattern: string): (path: string) => boolean {
  const anchored = pattern.includes('/');
  const source = globSource(pattern.replace(/^\.\//, ''));
  const regex = new RegExp(anchored ? `^${source}$` : `(^|/)${source}$`);
  return (path) => regex.test(path.split('\\').join('/'));
}

function globSource(pattern: string): string {
  let source = '';
  let braces = 0;
  for (let index = 0; index < pattern.length; index += 1) {
    const char = pattern[index] ?? '';
    if (char === '*') {
      if (pattern[index + 1] === '*') {
        index += 1;
        if (pattern[index + 1] === '/') {
          index += 1;
          source += '(?:.*/)?';
        } else source += '.*';
      } else source += '[^/]*';
    } else if (char === '?') source += '[^/]';
    else if (char === '[') {
      const close = pattern.indexOf(']', index + 1);
      if (close < 0) source += '\\[';
      else {
        source += `[${pattern
          .slice(index + 1, close)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\')}]`;
        index = close;
      }
    } else if (char === '{') {
      braces += 1;
      source += '(?:';
    } else if (char === '}' && braces > 0) {
      braces -= 1;
      source += ')';
    } else if (char === ',' && braces > 0) source += '|';
    else source += char.replace(/[.+^$()|\\]/g, '\\$&');
  }
  return source + ')'.repeat(braces);
}
