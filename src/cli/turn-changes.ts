/** After a turn that changed files, one line on stderr: `3 files changed, +12 −4`. */
import type { SessionEvent } from '../core/session-events.js';
import type { Io } from './io.js';

export interface ChangeReporter {
  observe(event: SessionEvent): void;
  /** Prints the line for the turn just finished (if it changed files) and starts over. */
  report(): Promise<void>;
}

export function createChangeReporter(io: Io): ChangeReporter {
  let snapshot: string | undefined;
  return {
    observe: (event) => {
      if (event.type !== 'item-recorded' || event.item.type !== 'ghost_snapshot' || snapshot !== undefined)
        return;
      const id = event.item.ghost_commit.id;
      if (typeof id === 'string') snapshot = id;
    },
    report: async () => {
      const from = snapshot;
      snapshot = undefined;
      if (from === undefined) return;
      try {
        const [{ openWorkspace }, { diffStat, formatDiffStat }] = await Promise.all([
          import('../core/tools/workspace.js'),
          import('../core/undo/turn-diff.js'),
        ]);
        const stat = await diffStat(openWorkspace(io.cwd).root, from);
        if (stat.files.length > 0) io.stderr.write(`${formatDiffStat(stat)}\n`);
      } catch {
        // The summary is a courtesy; a git failure here must not fail the turn.
      }
    },
  };
}
