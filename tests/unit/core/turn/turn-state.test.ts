import { describe, expect, it } from 'vitest';
import { canTransition, TurnStateMachine } from '../../../../src/core/turn/turn-state.js';
import type { TurnState } from '../../../../src/core/conversation/session-events.js';

const STATES: readonly TurnState[] = [
  'Idle',
  'ProcessingUserMessage',
  'AwaitingLLMResponse',
  'StreamingLLMResponse',
  'ProcessingLLMResponse',
  'AwaitingToolApproval',
  'ExecutingTools',
  'TransientFailure',
  'PermanentFailure',
  'Compacting',
  'Interrupted',
];

/** Every allowed transition, written out on its own (not derived from the implementation's table). */
const ALLOWED = `
Idle → ProcessingUserMessage          a turn starts
Idle → Compacting                     a manual compaction
ProcessingUserMessage → AwaitingLLMResponse
ProcessingUserMessage → Compacting    the window is nearly full before the first request
ProcessingUserMessage → PermanentFailure
ProcessingUserMessage → Interrupted
AwaitingLLMResponse → StreamingLLMResponse
AwaitingLLMResponse → ProcessingLLMResponse   a response without streamed text
AwaitingLLMResponse → TransientFailure
AwaitingLLMResponse → PermanentFailure
AwaitingLLMResponse → Compacting      the provider said the window is exceeded
AwaitingLLMResponse → Interrupted
StreamingLLMResponse → ProcessingLLMResponse
StreamingLLMResponse → TransientFailure
StreamingLLMResponse → PermanentFailure
StreamingLLMResponse → Compacting
StreamingLLMResponse → Interrupted
ProcessingLLMResponse → AwaitingToolApproval
ProcessingLLMResponse → ExecutingTools
ProcessingLLMResponse → AwaitingLLMResponse   a Stop hook sent the model back to work
ProcessingLLMResponse → Compacting    the same, with the window nearly full
ProcessingLLMResponse → Idle
ProcessingLLMResponse → PermanentFailure
ProcessingLLMResponse → Interrupted
AwaitingToolApproval → ExecutingTools
AwaitingToolApproval → PermanentFailure
AwaitingToolApproval → Interrupted
ExecutingTools → AwaitingToolApproval
ExecutingTools → AwaitingLLMResponse
ExecutingTools → Compacting
ExecutingTools → PermanentFailure
ExecutingTools → Interrupted
TransientFailure → AwaitingLLMResponse
TransientFailure → PermanentFailure
TransientFailure → Interrupted
Compacting → AwaitingLLMResponse
Compacting → Idle
Compacting → PermanentFailure
Compacting → Interrupted
PermanentFailure → Idle
Interrupted → Idle
`
  .trim()
  .split('\n')
  .map((line) => line.split(/\s+/).slice(0, 3).join(' '));

const CASES = STATES.flatMap((from) =>
  STATES.filter((to) => to !== from).map((to) => ({
    from,
    to,
    allowed: ALLOWED.includes(`${from} → ${to}`),
  })),
);

/** Drives a fresh machine from Idle to `state` along allowed transitions. */
function machineAt(state: TurnState): TurnStateMachine {
  const paths: Record<TurnState, TurnState[]> = {
    Idle: [],
    ProcessingUserMessage: ['ProcessingUserMessage'],
    AwaitingLLMResponse: ['ProcessingUserMessage', 'AwaitingLLMResponse'],
    StreamingLLMResponse: ['ProcessingUserMessage', 'AwaitingLLMResponse', 'StreamingLLMResponse'],
    ProcessingLLMResponse: ['ProcessingUserMessage', 'AwaitingLLMResponse', 'ProcessingLLMResponse'],
    AwaitingToolApproval: [
      'ProcessingUserMessage',
      'AwaitingLLMResponse',
      'ProcessingLLMResponse',
      'AwaitingToolApproval',
    ],
    ExecutingTools: [
      'ProcessingUserMessage',
      'AwaitingLLMResponse',
      'ProcessingLLMResponse',
      'ExecutingTools',
    ],
    TransientFailure: ['ProcessingUserMessage', 'AwaitingLLMResponse', 'TransientFailure'],
    PermanentFailure: ['ProcessingUserMessage', 'PermanentFailure'],
    Compacting: ['Compacting'],
    Interrupted: ['ProcessingUserMessage', 'Interrupted'],
  };
  const machine = new TurnStateMachine();
  for (const next of paths[state]) machine.to(next);
  expect(machine.current).toBe(state);
  return machine;
}

describe('turn state machine', () => {
  it('has 41 allowed transitions, all between known states', () => {
    expect(ALLOWED).toHaveLength(41);
    expect(CASES.filter((entry) => entry.allowed)).toHaveLength(41);
  });

  it.each(CASES)('$from → $to: allowed=$allowed', ({ from, to, allowed }) => {
    expect(canTransition(from, to)).toBe(allowed);
    const machine = machineAt(from);
    if (allowed) {
      expect(machine.to(to)).toEqual({ type: 'state', state: to });
      expect(machine.current).toBe(to);
    } else {
      expect(() => machine.to(to)).toThrow(expect.objectContaining({ kind: 'internal' }));
      expect(machine.current).toBe(from);
    }
  });

  it('staying in a state is no change and no event', () => {
    expect(machineAt('ExecutingTools').to('ExecutingTools')).toBeUndefined();
  });

  it('finish() passes through Interrupted or PermanentFailure to Idle from any running state', () => {
    expect(
      machineAt('AwaitingToolApproval')
        .finish('Interrupted')
        .map((event) => event.state),
    ).toEqual(['Interrupted', 'Idle']);
    expect(
      machineAt('TransientFailure')
        .finish('PermanentFailure')
        .map((event) => event.state),
    ).toEqual(['PermanentFailure', 'Idle']);
    expect(machineAt('Idle').finish('PermanentFailure')).toEqual([]);
  });
});
