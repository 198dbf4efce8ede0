/** Where Cody keeps its files: `$CODY_HOME` (default `~/.cody`). */
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { errorMessage, StorageError } from '../errors.js';

export interface CodyPaths {
  /** `$CODY_HOME`, absolute. */
  home: string;
  /** One `<id>.jsonl` rollout per conversation. */
  conversationsDir: string;
  configFile: string;
  /** Holds the id of the conversation `cody chat` continues. */
  activeFile: string;
}

export function resolveCodyPaths(env: Readonly<Record<string, string | undefined>>): CodyPaths {
  const configured = env.CODY_HOME;
  const home =
    configured !== undefined && configured.trim() !== ''
      ? resolve(configured)
      : join(env.HOME ?? homedir(), '.cody');
  return {
    home,
    conversationsDir: join(home, 'conversations'),
    configFile: join(home, 'config.json'),
    activeFile: join(home, 'active'),
  };
}

/** Private directories: conversations may hold secrets the person pasted. */
export const CODY_DIRECTORY_MODE = 0o700;

/** Creates `home` and `conversations/` (mode 0700, tightening existing ones) or says what is wrong. */
export async function ensureCodyHome(paths: CodyPaths): Promise<void> {
  for (const directory of [paths.home, paths.conversationsDir]) {
    try {
      // Synchronous on purpose: every command starts here, and two tiny calls cost less than a
      // round trip through the thread pool each.
      mkdirSync(directory, { recursive: true, mode: CODY_DIRECTORY_MODE });
      const info = statSync(directory);
      if (!info.isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
      if ((info.mode & 0o777) !== CODY_DIRECTORY_MODE) chmodSync(directory, CODY_DIRECTORY_MODE);
    } catch (error) {
      throw new StorageError(
        `Cannot use ${directory} for Cody's conversations: ${reasonOf(error)}. Make it a writable directory, or set CODY_HOME to one.`,
        { cause: error },
      );
    }
  }
}

function reasonOf(error: unknown): string {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ENOTDIR':
    case 'EEXIST':
      return 'a file is in the way (it, or a parent, is not a directory)';
    case 'EROFS':
      return 'the file system is read-only';
    default:
      return errorMessage(error);
  }
}
