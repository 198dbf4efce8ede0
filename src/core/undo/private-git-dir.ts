/**
 * The git directory Cody's own git runs with: a private temporary one whose config Cody writes, sharing
 * the repository's objects, refs, HEAD and info/ (exclude, attributes), so the repository's config is
 * never loaded. Nothing it could name runs: no core.fsmonitor, no hooks, no filter drivers, no textconv or
 * external diff, no aliases, pager or credential helper, no include.path, no core.worktree. Only settings
 * that change what a file's content is read as (line endings, file modes, excludes files) are carried
 * over, as values (see DATA_KEYS).
 */
import { execFile } from 'node:child_process';
import { constants, existsSync } from 'node:fs';
import { mkdtemp, open, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitConfigStamp, gitDirsOf, type GitDirs } from '../tools/index.js';

/**
 * Settings read from every config level and passed on: each only says how content is read or written
 * (or which files are ignored), none names a program.
 */
const DATA_KEYS: ReadonlySet<string> = new Set([
  'core.autocrlf',
  'core.eol',
  'core.safecrlf',
  'core.checkroundtripencoding',
  'core.filemode',
  'core.symlinks',
  'core.ignorecase',
  'core.precomposeunicode',
  'core.protecthfs',
  'core.protectntfs',
  'core.longpaths',
  'core.excludesfile',
  'core.attributesfile',
  'core.bigfilethreshold',
  'core.compression',
  'core.loosecompression',
  'core.sharedrepository',
]);

/** Shared with the repository, by symlink, when present: data only. */
const SHARED_FROM_COMMON = ['refs', 'packed-refs', 'reftable', 'info', 'shallow'];

/** What the repository's config says that Cody's git keeps. */
interface CarriedSettings {
  /** `key=value` pairs passed as `GIT_CONFIG_KEY_n` / `GIT_CONFIG_VALUE_n`. */
  data: [string, string][];
  /** `extensions.objectformat` (sha1 or sha256). */
  objectFormat?: string;
  /** `extensions.refstorage` (files or reftable). */
  refStorage?: string;
}

const carriedCache = new Map<string, { stamp: string; settings: Promise<CarriedSettings> }>();

/** Every git variable of the caller's environment is dropped: none can name a config, a program or a directory. */
export function cleanEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.toUpperCase().startsWith('GIT_')));
}

/** The environment that points git at a private directory for `root`; `body` runs with it, then it is removed. */
export async function withPrivateGitDir<T>(
  root: string,
  body: (env: NodeJS.ProcessEnv, dirs: GitDirs) => Promise<T>,
): Promise<T> {
  const dirs = gitDirsOf(root);
  if (dirs === undefined) throw new Error(`${root} is not a git work tree`);
  const settings = await carriedSettings(root);
  const directory = await mkdtemp(join(tmpdir(), 'cody-git-'));
  try {
    await populate(directory, dirs, settings);
    const env: NodeJS.ProcessEnv = {
      GIT_DIR: directory,
      GIT_WORK_TREE: root,
      GIT_OBJECT_DIRECTORY: join(dirs.commonDir, 'objects'),
      GIT_INDEX_FILE: join(dirs.gitDir, 'index'),
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_CONFIG_SYSTEM: '/dev/null',
      GIT_NO_REPLACE_OBJECTS: '1',
      GIT_OPTIONAL_LOCKS: '0',
      GIT_TERMINAL_PROMPT: '0',
      GIT_PAGER: 'cat',
      GIT_CONFIG_COUNT: String(settings.data.length),
    };
    settings.data.forEach(([key, value], index) => {
      env[`GIT_CONFIG_KEY_${index}`] = key;
      env[`GIT_CONFIG_VALUE_${index}`] = value;
    });
    return await body(env, dirs);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

async function populate(directory: string, dirs: GitDirs, settings: CarriedSettings): Promise<void> {
  const extensions = [
    ...(settings.objectFormat !== undefined ? [`\tobjectformat = ${settings.objectFormat}`] : []),
    ...(settings.refStorage !== undefined ? [`\trefstorage = ${settings.refStorage}`] : []),
  ];
  const version = extensions.length > 0 ? 1 : 0;
  const config = [
    '[core]',
    `\trepositoryformatversion = ${version}`,
    '\tbare = false',
    ...(extensions.length > 0 ? ['[extensions]', ...extensions] : []),
    '',
  ].join('\n');
  await writeFile(join(directory, 'config'), config);
  // HEAD is copied (it is per work tree); a missing one fails the command as it would have.
  await writeFile(join(directory, 'HEAD'), await readHead(join(dirs.gitDir, 'HEAD')));
  for (const name of SHARED_FROM_COMMON) {
    const target = join(dirs.commonDir, name);
    if (existsSync(target)) await symlink(target, join(directory, name));
  }
  // A split index names its shared part, which git looks for in the git directory.
  for (const name of await readdir(dirs.gitDir).catch(() => [])) {
    if (name.startsWith('sharedindex.')) await symlink(join(dirs.gitDir, name), join(directory, name));
  }
}

function carriedSettings(root: string): Promise<CarriedSettings> {
  const stamp = gitConfigStamp(root);
  const cached = carriedCache.get(root);
  if (cached?.stamp === stamp) return cached.settings;
  const settings = readCarriedSettings(root);
  carriedCache.set(root, { stamp, settings });
  return settings;
}

/**
 * `git config --list` in the repository reads the config files (includes too) and runs nothing; a
 * repository git will not read (another owner, a broken config) carries nothing.
 */
function readCarriedSettings(root: string): Promise<CarriedSettings> {
  return new Promise((resolvePromise) => {
    execFile(
      'git',
      ['--no-pager', 'config', '--list', '-z'],
      {
        cwd: root,
        env: { ...cleanEnvironment(process.env), GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0' },
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout) => resolvePromise(error ? { data: [] } : parseSettings(stdout)),
    );
  });
}

export function parseSettings(listing: string): CarriedSettings {
  const values = new Map<string, string>();
  for (const record of listing.split('\0')) {
    const newline = record.indexOf('\n');
    const key = (newline < 0 ? record : record.slice(0, newline)).toLowerCase();
    const value = newline < 0 ? 'true' : record.slice(newline + 1);
    if (key !== '') values.set(key, value);
  }
  const settings: CarriedSettings = {
    data: [...values].filter(([key]) => DATA_KEYS.has(key)),
  };
  const objectFormat = values.get('extensions.objectformat')?.toLowerCase();
  if (objectFormat === 'sha1' || objectFormat === 'sha256') settings.objectFormat = objectFormat;
  const refStorage = values.get('extensions.refstorage')?.toLowerCase();
  if (refStorage === 'files' || refStorage === 'reftable') settings.refStorage = refStorage;
  return settings;
}

/** Most bytes of HEAD read: a ref name or an object id, never more than a line. */
const MAX_HEAD_BYTES = 4096;

/** HEAD's text, read as a regular file: never blocking on a FIFO, never more than a line's worth. */
async function readHead(file: string): Promise<string> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  try {
    if (!(await handle.stat()).isFile()) throw new Error(`${file} is not a regular file`);
    const buffer = Buffer.alloc(MAX_HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, MAX_HEAD_BYTES, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}
