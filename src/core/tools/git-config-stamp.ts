/**
 * A fingerprint of the repository's own git config files and every file they include. `git status`,
 * `git diff`… run without asking only while it is unchanged: a config written during the session (by
 * the model, under auto-edit) could make them run a program (`core.fsmonitor`, `diff.external`, a
 * textconv or clean filter) — and so could a file the config includes (`include.path`,
 * `includeIf.*.path`), which may lie in the work tree, where edits need no approval.
 */
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { gitDirsOf } from './git-dirs.js';

/** How deep includes are followed (git's own limit is 10). */
const MAX_INCLUDE_DEPTH = 10;
/** Bytes of one config file read to find its includes; a larger file is stamped as too large. */
const MAX_CONFIG_BYTES = 1024 * 1024;

export function gitConfigStamp(root: string): string {
  const dirs = gitDirsOf(root);
  if (dirs === undefined) return 'no git';
  const seen = new Set<string>();
  return [join(dirs.commonDir, 'config'), join(dirs.gitDir, 'config.worktree')]
    .map((file) => stampWithIncludes(file, seen, 0))
    .join('|');
}

function stampWithIncludes(file: string, seen: Set<string>, depth: number): string {
  if (seen.has(file)) return 'seen';
  seen.add(file);
  const own = stampOf(file);
  if (own === 'absent' || depth >= MAX_INCLUDE_DEPTH) return own;
  const text = readConfigText(file);
  if (text === undefined) return `${own}:unreadable`;
  const included = includedPaths(text).map((path) => includeTarget(path, file));
  const nested = included.map((target) => `<${stampWithIncludes(target, seen, depth + 1)}>`);
  return [own, ...nested].join('');
}

/** `mtime:size:inode`, or `absent`. */
function stampOf(file: string): string {
  try {
    const stat = statSync(file);
    return `${stat.mtimeMs}:${stat.size}:${stat.ino}`;
  } catch {
    return 'absent';
  }
}

/** A regular file's text, never blocking on a FIFO or reading past the cap. */
function readConfigText(file: string): string | undefined {
  let descriptor: number | undefined;
  try {
    descriptor = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
    if (!fstatSync(descriptor).isFile()) return undefined;
    const buffer = Buffer.alloc(MAX_CONFIG_BYTES + 1);
    let length = 0;
    for (;;) {
      const read = readSync(descriptor, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
      if (length > MAX_CONFIG_BYTES) return undefined;
    }
    return buffer.subarray(0, length).toString('utf8');
  } catch {
    return undefined;
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}

/**
 * Every `path` value in the config's `[include]` and `[includeIf "…"]` sections. Over-inclusive on
 * purpose: a value git would not follow only adds a file to the stamp.
 */
export function includedPaths(text: string): string[] {
  const paths: string[] = [];
  let inInclude = false;
  for (const rawLine of text.split('\n')) {
    const line = rawLine.trim();
    const section = /^\[\s*([A-Za-z0-9.-]+)/.exec(line);
    if (section) {
      inInclude = /^include(if)?$/i.test(section[1] ?? '');
      // `[include] path = x` may follow the header on the same line.
      const rest = line.slice(line.indexOf(']') + 1).trim();
      if (!inInclude || rest === '') continue;
      collectPath(rest, paths);
      continue;
    }
    if (inInclude) collectPath(line, paths);
  }
  return paths;
}

function collectPath(line: string, paths: string[]): void {
  const match = /^path\s*=\s*(.*)$/i.exec(line);
  if (!match) return;
  let value = (match[1] ?? '').replace(/\s[#;].*$/, '').trim();
  if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
  if (value !== '') paths.push(value);
}

/** Where git looks for an included path: `~/` is home, a relative path is beside the including file. */
function includeTarget(path: string, includingFile: string): string {
  if (path.startsWith('~/')) return join(homedir(), path.slice(2));
  if (isAbsolute(path)) return path;
  return resolve(dirname(includingFile), path);
}
