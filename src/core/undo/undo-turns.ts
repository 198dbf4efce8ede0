/**
 * `undo`: restores the work tree to the ghost snapshot taken before the last N turns that changed files,
 * and records the rollback (a `thread_rolled_back` event) so resume drops those turns from the history.
 */
import type { ConversationManager } from '../conversation-manager.js';
import { CodyError } from '../errors.js';
import { acquireConversationLock, DEFAULT_LOCK_TIMEOUT_MS, RolloutRecorder } from '../rollout/index.js';
import { openWorkspace } from '../tools/workspace.js';
import { ghostCommitOf } from './ghost-snapshot.js';
import { gitText } from './git.js';
import { restoreSnapshot, type FileChange } from './restore.js';
import { planUndo } from './rollback.js';

export interface UndoResult {
  /** User turns dropped from the conversation. */
  turns: number;
  snapshotId: string;
  changes: FileChange[];
}

export async function undoTurns(options: {
  manager: ConversationManager;
  conversationId: string;
  cwd: string;
  turns: number;
  lockTimeoutMs?: number;
}): Promise<UndoResult> {
  const workspace = openWorkspace(options.cwd);
  if (!workspace.isGit)
    throw new CodyError(
      `Cannot undo: ${options.cwd} is not in a git work tree, so no snapshots were taken.`,
      'usage',
    );
  const filePath = options.manager.rolloutPath(options.conversationId);
  const release = await acquireConversationLock(filePath, {
    timeoutMs: options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS,
  });
  try {
    const resumed = await options.manager.resumeConversation(options.conversationId);
    const plan = planUndo(resumed.history, options.turns);
    const available = resumed.history.filter((item) => item.type === 'ghost_snapshot').length;
    if (!plan) {
      throw new CodyError(
        available === 0
          ? 'Nothing to undo: no turn of this conversation changed files.'
          : `Only ${available} turn${available === 1 ? '' : 's'} can be undone.`,
        'usage',
      );
    }
    const commit = ghostCommitOf(plan.snapshot);
    if (!commit)
      throw new CodyError('Cannot undo: the snapshot in the conversation is malformed.', 'failure');
    try {
      await gitText(['cat-file', '-e', `${commit.id}^{commit}`], { cwd: workspace.root });
    } catch {
      throw new CodyError(
        `Cannot undo: snapshot ${commit.id.slice(0, 12)} is not in the repository at ${workspace.root}. Undo from the project the conversation worked in.`,
        'usage',
      );
    }
    const changes = await restoreSnapshot(workspace.root, commit.id);
    const recorder = await RolloutRecorder.open(filePath);
    try {
      await recorder.appendEvent({
        type: 'thread_rolled_back',
        num_turns: plan.turns,
        ghost_commit_id: commit.id,
      });
    } finally {
      await recorder.close();
    }
    return { turns: plan.turns, snapshotId: commit.id, changes };
  } finally {
    await release();
  }
}
