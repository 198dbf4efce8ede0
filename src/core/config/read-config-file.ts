/**
 * Reads `config.json` defensively (issues 7.11, 36.5: through readOwnFile): only a regular file (a symlink to one is fine), at most
 * {@link MAX_CONFIG_BYTES}, valid UTF-8, nested at most {@link MAX_CONFIG_DEPTH} levels. A symlink to
 * `/dev/zero` or a FIFO used to hang every command; 100,000 levels of nesting overflowed the stack
 * when the config was written back. Each refusal is one line and exit 2.
 */
import { isUtf8 } from 'node:buffer';
import { CodyError, errorMessage, StorageError } from '../errors.js';
import { readOwnFileSync, RefusedFileError } from '../fs/index.js';

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
  let file;
  try {
    // The path is the person's own choice (`$CODY_HOME`): a link may lead anywhere, to a regular file.
    file = readOwnFileSync(configFile, { maxBytes: MAX_CONFIG_BYTES });
  } catch (error) {
    if (error instanceof RefusedFileError) throw refuse(configFile, error.problem);
    throw new StorageError(`Cannot read ${configFile}: ${errorMessage(error)}`, { cause: error });
  }
  if (!file) return undefined;
  if (!isUtf8(file.bytes)) throw refuse(configFile, 'is not valid UTF-8');
  const text = file.bytes.toString('utf8');
  if (jsonDepth(text) > MAX_CONFIG_DEPTH)
    throw refuse(configFile, `nests deeper than ${MAX_CONFIG_DEPTH} levels`);
  return text;
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
