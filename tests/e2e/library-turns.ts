/**
 * Turns through the library (`createCody`, in process) on a harness's home, config and fake provider:
 * the same engine `cody chat` runs (tests/e2e/parity-matrix.test.ts checks both send the same requests
 * and record the same rollout). Tests use it to build up a conversation, e.g. to the edge of its
 * context window, in milliseconds per turn instead of spawning the binary once per turn, and keep the
 * spawns for what the command line itself does.
 */
import { createCody } from '../../src/index.js';
import { CLI_VERSION } from '../../src/cli/version.js';
import type { SessionEvent } from '../../src/core/conversation/session-events.js';
import type { Harness } from './harness.js';

export interface LibraryTurns {
  /** The conversation's id. */
  id: string;
  /** Every event of every turn, in order. */
  events: SessionEvent[];
}

/**
 * Sends each message as one turn, in order, on conversation `id` (a new one when absent), with nobody
 * to ask (as `cody chat` with stdin not a terminal). Each turn must complete.
 */
export async function libraryTurns(
  harness: Harness,
  messages: readonly string[],
  id?: string,
): Promise<LibraryTurns> {
  const cody = createCody({
    home: harness.env.CODY_HOME,
    env: harness.env,
    cwd: harness.home,
    canAsk: false,
    version: CLI_VERSION,
  });
  try {
    const conversation = id === undefined ? await cody.create() : await cody.open(id);
    const events: SessionEvent[] = [];
    for (const message of messages) {
      let last: SessionEvent | undefined;
      for await (const event of conversation.submit(message)) {
        events.push(event);
        last = event;
      }
      if (last?.type !== 'turn-complete' || last.status !== 'completed') {
        throw new Error(`turn "${message.slice(0, 40)}" ended with ${JSON.stringify(last)}`);
      }
    }
    return { id: conversation.id, events };
  } finally {
    await cody.close();
  }
}
