/** After a turn that changed files, one line on stderr: `3 files changed, +12 −4`. */
import { changesSince, type SessionEvent } from '../core/index.js';

export interface ChangeReporter {
  observe(event: SessionEvent): void;
  /** Passes a turn's events through, noting its ghost snapshot. */
  watch(events: AsyncIterable<SessionEvent>): AsyncGenerator<SessionEvent>;
  /** Writes the line for the turn just finished (if it changed files) and starts over. */
  report(): Promise<void>;
}

export function createChangeReporter(write: (line: string) => void, cwd: string): ChangeReporter {
  let snapshot: string | undefined;
  const observe = (event: SessionEvent): void => {
    if (event.type !== 'item-recorded' || event.item.type !== 'ghost_snapshot' || snapshot !== undefined)
      return;
    const id = event.item.ghost_commit.id;
    if (typeof id === 'string') snapshot = id;
  };
  return {
    observe,
    watch: async function* (events) {
      for await (const event of events) {
        observe(event);
        yield event;
      }
    },
    report: async () => {
      const from = snapshot;
      snapshot = undefined;
      if (from === undefined) return;
      try {
        const line = await changesSince(cwd, from);
        if (line !== undefined) write(line);
      } catch {
        // The summary is a courtesy; a git failure here must not fail the turn.
      }
    },
  };
}
