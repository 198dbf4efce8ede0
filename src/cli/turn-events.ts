/** A conversation's events as the CLI reads them: a turn that ends by an error throws that error. */
import { thrownBy } from '../core/index.js';
import type { SessionEvent } from '../core/index.js';

/**
 * `Conversation.submit` never throws: a failed or interrupted turn ends with a `turn-failed` (or an
 * interrupted `turn-complete`) event. The CLI reports the error itself (its exit code, its one line,
 * the unsent text of a full disk), so the event it was made from is thrown instead of passed on.
 */
export async function* throwing(events: AsyncIterable<SessionEvent>): AsyncGenerator<SessionEvent> {
  for await (const event of events) {
    const error = thrownBy(event);
    if (error !== undefined) throw error;
    yield event;
  }
}
