/**
 * Forking: a new conversation whose rollout holds another's lines up to the end of user turn N (all of
 * them without N), verbatim, under a new `session_meta` that names its origin in `forked_from_id`. The
 * new file is written whole to a temporary name, fsync'd and renamed, so it exists complete or not at all.
 */
import { open, readFile, rename, rm } from 'node:fs/promises';
import { SUMMARY_PREFIX } from './compact/summary-prefix.js';
import type { ConversationManager } from './conversation-manager.js';
import { newConversationId } from './conversation-id.js';
import { EmptyConversationError, errorMessage, StorageError, UsageError } from './errors.js';
import { isContextualUserText } from './rollout/is-contextual-user-text.js';
import { ROLLOUT_FILE_MODE } from './rollout/recorder-file-system.js';

interface Line {
  type?: unknown;
  payload?: unknown;
}

function typedUserText(line: Line): boolean {
  if (line.type !== 'response_item' || typeof line.payload !== 'object' || line.payload === null)
    return false;
  const payload = line.payload as { type?: unknown; role?: unknown; content?: unknown };
  if (payload.type !== 'message' || payload.role !== 'user' || !Array.isArray(payload.content)) return false;
  const text = (payload.content as Array<{ text?: unknown }>)
    .map((part) => (typeof part.text === 'string' ? part.text : ''))
    .join(' ');
  return text.trim() !== '' && !text.startsWith(SUMMARY_PREFIX) && !isContextualUserText(text);
}

/** The lines to keep: everything before the turn that holds user message `atUserTurn + 1`. */
export function linesUpToUserTurn(lines: readonly string[], atUserTurn: number | undefined): string[] {
  if (atUserTurn === undefined) return [...lines];
  const parsed = lines.map((text): Line => {
    try {
      return JSON.parse(text) as Line;
    } catch {
      return {};
    }
  });
  let users = 0;
  let turnStart = -1;
  for (const [index, line] of parsed.entries()) {
    if (line.type === 'turn_context') turnStart = index;
    if (!typedUserText(line)) continue;
    users += 1;
    if (users === atUserTurn + 1) return lines.slice(0, turnStart >= 0 ? turnStart : index);
  }
  if (users < atUserTurn)
    throw new UsageError(
      `--at ${atUserTurn}: the conversation has only ${users} user turn${users === 1 ? '' : 's'}.`,
    );
  return [...lines];
}

/** Creates the fork and makes it the active conversation; returns its id. */
export async function forkConversation(
  manager: ConversationManager,
  idOrPrefix: string,
  options: { atUserTurn?: number; now?: Date } = {},
): Promise<string> {
  if (options.atUserTurn !== undefined && (!Number.isInteger(options.atUserTurn) || options.atUserTurn < 1))
    throw new UsageError('--at must be a user turn number, 1 or more.');
  const sourceId = await manager.resolveId(idOrPrefix);
  const sourcePath = manager.rolloutPath(sourceId);
  let text: string;
  try {
    text = await readFile(sourcePath, 'utf8');
  } catch (error) {
    throw new StorageError(`Cannot read ${sourcePath}: ${errorMessage(error)}`, { cause: error });
  }
  // A torn last line (a crash mid-write) is left behind, as resume leaves it.
  const lines = text
    .split('\n')
    .filter((line, index, all) => line !== '' && (index < all.length - 1 || text.endsWith('\n')));
  const [metaLine, ...rest] = lines;
  let meta: { type?: unknown; payload?: Record<string, unknown> };
  try {
    meta = JSON.parse(metaLine ?? '') as typeof meta;
  } catch {
    throw new EmptyConversationError(sourceId);
  }
  if (meta.type !== 'session_meta' || !meta.payload) throw new EmptyConversationError(sourceId);
  const now = options.now ?? new Date();
  const id = newConversationId(now.getTime());
  const newMeta = {
    timestamp: now.toISOString(),
    type: 'session_meta',
    payload: { ...meta.payload, id, timestamp: now.toISOString(), forked_from_id: sourceId },
  };
  const kept = linesUpToUserTurn(rest, options.atUserTurn);
  const target = manager.rolloutPath(id);
  const temporary = `${target}.fork-${process.pid}.tmp`;
  try {
    const handle = await open(temporary, 'wx', ROLLOUT_FILE_MODE);
    try {
      await handle.writeFile([JSON.stringify(newMeta), ...kept].map((line) => `${line}\n`).join(''));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw new StorageError(`Cannot write ${target}: ${errorMessage(error)}`, { cause: error });
  }
  await manager.setActive(id);
  return id;
}
