/**
 * Reads `config.json` defensively (issue 7.11): only a regular file (a symlink to one is fine), at most
 * {@link MAX_CONFIG_BYTES}, valid UTF-8, nested at most {@link MAX_CONFIG_DEPTH} levels. A symlink to
 * `/dev/zero` or a FIFO used to hang every command; 100,000 levels of nesting overflowed the stack
 * when the config was written back. Each refusal is one line and exit 2.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { CodyError, errorMessage, isErrno, StorageError } from '../errors.js';

/** Far above any real config (a few KB), far below what would slow start-up. */
export const MAX_CONFIG_BYTES = 1 << 20;
/** Real configs nest 3–4 levels; anything deeper is not a Cody config. */
export const MAX_CONFIG_DEPTH = 64;

function refuse(configFile: string, problem: string): CodyError {
  return new CodyError(`${configFile} ${problem}. Fix or delete it.`, 'usage');
}

/** The deepest nesting of arrays and objects in `text`, scanning outside strings (linear, no recursion). */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index += 1;
      else if (code === 0x22) inString = false;
      continue;
    }
    if (code === 0x22) inString = true;
    else if (code === 0x7b || code === 0x5b) {
      depth += 1;
      if (depth > deepest) deepest = depth;
    } else if (code === 0x7d || code === 0x5d) depth -= 1;
  }
  return deepest;
}

/** The config file's text, or undefined when there is none. */
export function readConfigText(configFile: string): string | undefined {
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO must not wait for a writer.
    fd = openSync(configFile, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return undefined;
    if (isErrno(error, 'ENOTDIR')) return undefined;
    throw new StorageError(`Cannot read ${configFile}: ${errorMessage(error)}`, { cause: error });
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw refuse(configFile, 'is not a regular file');
    if (stats.size > MAX_CONFIG_BYTES)
      throw refuse(
        configFile,
        `is ${stats.size.toLocaleString('en-US')} bytes, over the ${MAX_CONFIG_BYTES.toLocaleString('en-US')}-byte limit`,
      );
    const buffer = Buffer.alloc(MAX_CONFIG_BYTES + 1);
    let length = 0;
    for (;;) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
      if (length > MAX_CONFIG_BYTES)
        throw refuse(configFile, `is over the ${MAX_CONFIG_BYTES.toLocaleString('en-US')}-byte limit`);
    }
    const bytes = buffer.subarray(0, length);
    if (!isUtf8(bytes)) throw refuse(configFile, 'is not valid UTF-8');
    const text = bytes.toString('utf8');
    if (jsonDepth(text) > MAX_CONFIG_DEPTH)
      throw refuse(configFile, `nests deeper than ${MAX_CONFIG_DEPTH} levels`);
    return text;
  } catch (error) {
    if (error instanceof CodyError) throw error;
    throw new StorageError(`Cannot read ${configFile}: ${errorMessage(error)}`, { cause: error });
  } finally {
    closeSync(fd);
  }
}

/** Keys that name Object.prototype's plumbing: assigned on a plain object they change or shadow it. */
const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor']);

/**
 * The path (`models.__proto__`) of a key anywhere in the parsed config that is `__proto__` or
 * `constructor`, or undefined. `JSON.parse` makes them plain own properties, but merging
 * or validating the config would assign them (zod's records do), so such a file is refused whole.
 */
export function forbiddenKeyPath(raw: unknown): string | undefined {
  const pending: Array<{ value: unknown; path: string }> = [{ value: raw, path: '' }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, path } = next;
    if (typeof value !== 'object' || value === null) continue;
    for (const [key, child] of Object.entries(value)) {
      const childPath = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
      if (!Array.isArray(value) && FORBIDDEN_KEYS.has(key)) return childPath;
      pending.push({ value: child, path: childPath });
    }
  }
  return undefined;
}
