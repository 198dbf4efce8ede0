/**
 * The turn state machine of one conversation. Every change goes through `to`, which refuses a
 * transition the table does not allow (a bug in the engine, reported as an internal error) and returns
 * the `state` event to emit.
 */
import { CodyError } from '../errors.js';
import type { SessionEvent, TurnState } from '../conversation/index.js';

/** Every allowed transition: state → the states it may move to. Anything else is refused. */
export const TURN_TRANSITIONS: Readonly<Record<TurnState, readonly TurnState[]>> = {
  Idle: ['ProcessingUserMessage', 'Compacting'],
  // The user message is recorded; an automatic compaction may come first.
  ProcessingUserMessage: ['AwaitingLLMResponse', 'Compacting', 'PermanentFailure', 'Interrupted'],
  AwaitingLLMResponse: [
    'StreamingLLMResponse',
    // A response with no streamed text (only a tool call, or nothing).
    'ProcessingLLMResponse',
    'TransientFailure',
    'PermanentFailure',
    // The provider said the context window is exceeded.
    'Compacting',
    'Interrupted',
  ],
  StreamingLLMResponse: [
    'ProcessingLLMResponse',
    'TransientFailure',
    'PermanentFailure',
    'Compacting',
    'Interrupted',
  ],
  ProcessingLLMResponse: [
    'AwaitingToolApproval',
    'ExecutingTools',
    // A Stop hook sent the model back to work (an automatic compaction may come first).
    'AwaitingLLMResponse',
    'Compacting',
    'Idle',
    'PermanentFailure',
    'Interrupted',
  ],
  AwaitingToolApproval: ['ExecutingTools', 'PermanentFailure', 'Interrupted'],
  ExecutingTools: [
    // The next call of the same response needs asking.
    'AwaitingToolApproval',
    'AwaitingLLMResponse',
    // An automatic compaction between tool rounds.
    'Compacting',
    'PermanentFailure',
    'Interrupted',
  ],
  // A retry: the next attempt, or the budget is spent.
  TransientFailure: ['AwaitingLLMResponse', 'PermanentFailure', 'Interrupted'],
  // Within a turn the request follows; a manual compaction returns to Idle.
  Compacting: ['AwaitingLLMResponse', 'Idle', 'PermanentFailure', 'Interrupted'],
  PermanentFailure: ['Idle'],
  Interrupted: ['Idle'],
};

export function canTransition(from: TurnState, to: TurnState): boolean {
  return TURN_TRANSITIONS[from].includes(to);
}

export class TurnStateMachine {
  private state: TurnState = 'Idle';

  get current(): TurnState {
    return this.state;
  }

  /**
   * Moves to `next` and returns the `state` event to emit; `undefined` when already there (the second
   * tool call of a response keeps `ExecutingTools`). Throws on a transition the table refuses.
   */
  to(next: TurnState): Extract<SessionEvent, { type: 'state' }> | undefined {
    if (next === this.state) return undefined;
    if (!canTransition(this.state, next)) {
      throw new CodyError(`Internal error: turn state ${this.state} cannot change to ${next}.`, 'internal');
    }
    this.state = next;
    return { type: 'state', state: next };
  }

  /**
   * Ends whatever the turn was doing: an interrupted or failed turn passes through its terminal state,
   * then everything returns to Idle. Returns the events to emit.
   */
  finish(outcome: 'Idle' | 'PermanentFailure' | 'Interrupted'): Extract<SessionEvent, { type: 'state' }>[] {
    const events: Extract<SessionEvent, { type: 'state' }>[] = [];
    const ended = this.state === 'Idle' || this.state === 'PermanentFailure' || this.state === 'Interrupted';
    if (outcome !== 'Idle' && !ended) {
      // Interrupted or failed from wherever the turn stood: every running state allows both.
      const event = this.to(outcome);
      if (event) events.push(event);
    }
    if (this.state !== 'Idle') {
      const event = this.to('Idle');
      if (event) events.push(event);
    }
    return events;
  }
}
