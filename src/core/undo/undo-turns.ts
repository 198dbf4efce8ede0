/**
 * `undo`: takes back the change sets of the last N turns that changed files — each path only while it
 * still holds what the turn left (else kept, unless forced) — and records the rollback (a
 * `thread_rolled_back` event, with what was restored, removed and kept) so resume drops those turns.
 */
import type { ConversationManager } from '../store/index.js';
import { CodyError } from '../errors.js';
import { acquireConversationLock, DEFAULT_LOCK_TIMEOUT_MS } from '../rollout/index.js';
import { openWorkspace } from '../tools/index.js';
import { workTreeTree } from './ghost-snapshot.js';
import { gitText } from './git.js';
import { turnStarts } from '../rollout/index.js';
import {
  applyRestore,
  planRestore,
  treeEntries,
  type RestorePlan,
  type TurnRestore,
} from './selective-restore.js';
import { readTurnChanges, turnChangeSets, withChanges, type TurnChangeSet } from './turn-snapshots.js';

export interface UndoResult {
  /** User turns dropped from the conversation (from the first undone turn to the end). */
  turns: number;
  /** The numbers of the turns with changes that were undone, oldest first. */
  undone: number[];
  /** The snapshot of the oldest undone turn. */
  snapshotId: string;
  restored: string[];
  removed: string[];
  /** Changed since the turn: not touched. */
  kept: string[];
  /** Changed since the turn and restored anyway (force, confirmed). */
  overwritten: string[];
}

export interface UndoOptions {
  manager: ConversationManager;
  conversationId: string;
  cwd: string;
  turns: number;
  /** Restore paths changed since the turn too, once `confirm` agrees. */
  force?: boolean;
  /** Asked before overwriting paths changed since the turn (force); false: nothing is done. */
  confirm?: (paths: readonly string[]) => Promise<boolean>;
  lockTimeoutMs?: number;
}

export async function undoTurns(options: UndoOptions): Promise<UndoResult> {
  const workspace = openWorkspace(options.cwd);
  if (!workspace.isGit)
    throw new CodyError(
      `Cannot undo: undo needs git, and ${options.cwd} is not in a git work tree, so nothing was snapshotted.`,
      'usage',
    );
  const root = workspace.root;
  const filePath = options.manager.rolloutPath(options.conversationId);
  const release = await acquireConversationLock(filePath, {
    timeoutMs: options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS,
  });
  try {
    const resumed = await options.manager.resumeConversation(options.conversationId);
    const snapshotted = resumed.history.filter((item) => item.type === 'ghost_snapshot');
    for (const item of snapshotted) await requireCommit(root, String(item.ghost_commit.id));
    const sets = withChanges(await turnChangeSets(root, resumed.history, await readTurnChanges(filePath)));
    if (sets.length < options.turns) {
      throw new CodyError(
        sets.length === 0
          ? 'Nothing to undo: no turn of this conversation changed files.'
          : `Only ${sets.length} turn${sets.length === 1 ? '' : 's'} changed files; that many can be undone.`,
        'usage',
      );
    }
    const undone = sets.slice(sets.length - options.turns);
    const oldest = undone[0] as TurnChangeSet;
    const plan = await planUndo(root, undone, options.force === true);
    if (
      plan.overwritten.length > 0 &&
      !(await (options.confirm?.(plan.overwritten) ?? Promise.resolve(false)))
    )
      throw new CodyError('Not undone: nothing was changed.', 'usage');
    await applyRestore(root, plan.writes);
    const turns = turnStarts(resumed.history).length - oldest.turn + 1;
    const recorder = await options.manager.store.openForAppend(options.conversationId);
    try {
      await recorder.appendEvent({
        type: 'thread_rolled_back',
        num_turns: turns,
        ghost_commit_id: oldest.snapshot,
        undone_turns: undone.map((set) => set.turn),
        restored: plan.restored,
        removed: plan.removed,
        kept: plan.kept,
        overwritten: plan.overwritten,
      });
    } finally {
      await recorder.close();
    }
    const { restored, removed, kept, overwritten } = plan;
    return {
      turns,
      undone: undone.map((set) => set.turn),
      snapshotId: oldest.snapshot,
      restored,
      removed,
      kept,
      overwritten,
    };
  } finally {
    await release();
  }
}

/** Newest turn first, each against the work tree as the newer ones leave it. */
async function planUndo(
  root: string,
  undone: readonly TurnChangeSet[],
  force: boolean,
): Promise<RestorePlan> {
  const now = await treeEntries(root, await workTreeTree(root));
  const turns: TurnRestore[] = [];
  for (const set of [...undone].reverse()) {
    turns.push({
      before: await treeEntries(root, set.snapshot),
      after: set.after !== undefined ? await treeEntries(root, set.after) : now,
      paths: set.files.map((file) => file.path),
    });
  }
  return planRestore(turns, now, force);
}

async function requireCommit(root: string, id: string): Promise<void> {
  try {
    await gitText(['cat-file', '-e', `${id}^{commit}`], { cwd: root });
  } catch {
    throw new CodyError(
      `Cannot undo: snapshot ${id.slice(0, 12)} is not in the repository at ${root}. Undo from the project the conversation worked in.`,
      'usage',
    );
  }
}
