/**
 * One turn on a conversation for a `tools/call`: the events drive progress messages, each approval the
 * engine asks for is put to the client (elicitation) while the turn waits, and the turn's final reply is
 * collected. The request's abort signal is the turn's: a cancelled call interrupts the turn (recorded as
 * interrupted) and withdraws any question still open.
 */
import type { Conversation, ReasoningLevel, SessionEvent } from '../core/index.js';
import {
  approvalAnswer,
  approvalForm,
  type ApprovalForm,
  type ApprovalRequest,
  type ElicitAnswer,
} from './approval-question.js';

/** Puts a form to the client's person; rejects when the request fails or `signal` aborts. */
export type AskClient = (form: ApprovalForm, signal: AbortSignal) => Promise<ElicitAnswer>;

export interface TurnInput {
  conversation: Conversation;
  prompt: string;
  reasoning?: ReasoningLevel;
  /** The `tools/call` request's signal (the client cancelled it, or the server is stopping). */
  signal: AbortSignal;
  /** Told what the turn is doing (progress notifications); absent when the client asked for none. */
  progress?: (message: string) => void;
  /** Asks the client's person (elicitation); absent when the client cannot be asked. */
  ask?: AskClient;
}

export interface TurnOutcome {
  status: 'completed' | 'interrupted' | 'failed';
  /** The model's last message of the turn (text written before a tool call is not the reply). */
  reply: string;
  error?: { kind: string; message: string };
}

/** How often streaming text is reported (each report resets a client's request timeout). */
const TEXT_PROGRESS_MS = 1_000;

export async function runTurn(input: TurnInput): Promise<TurnOutcome> {
  const { conversation } = input;
  const questions = new Map<string, AbortController>();
  const reporter = progressReporter(input.progress, conversation.id);
  let reply = '';
  let outcome: TurnOutcome | undefined;
  const events = conversation.submit(input.prompt, {
    signal: input.signal,
    ...(input.reasoning !== undefined ? { reasoning: input.reasoning } : {}),
  });
  try {
    for await (const event of events) {
      reporter(event, reply.length);
      if (event.type === 'text-delta') reply += event.text;
      else if (event.type === 'tool-call' || event.type === 'turn-started') reply = '';
      else if (event.type === 'retry' && event.discardedPartial) reply = '';
      else if (event.type === 'approval-requested') askClient(input, event, questions);
      else if (event.type === 'approval-resolved') questions.get(event.id)?.abort();
      else if (event.type === 'turn-complete') outcome = { status: event.status, reply };
      else if (event.type === 'turn-failed') outcome = { status: 'failed', reply, error: event.error };
    }
  } finally {
    for (const question of questions.values()) question.abort();
  }
  return outcome ?? { status: 'interrupted', reply };
}

/**
 * Puts one approval to the client without holding up the events (several calls may ask at once); its
 * answer goes to the conversation. A question the engine settled first (no answer in time, the turn
 * ended) is withdrawn. Without a way to ask, the call is declined (the engine does not ask then).
 */
function askClient(
  input: TurnInput,
  request: ApprovalRequest,
  questions: Map<string, AbortController>,
): void {
  const { conversation, ask } = input;
  if (!ask) {
    conversation.respond(request.id, 'deny', 'nobody can be asked');
    return;
  }
  const controller = new AbortController();
  questions.set(request.id, controller);
  const onAbort = (): void => controller.abort();
  input.signal.addEventListener('abort', onAbort, { once: true });
  void ask(approvalForm(request), controller.signal)
    .then((answer) => approvalAnswer(request, answer))
    .catch(() => ({ decision: 'deny' as const, reason: 'the question could not be put to the user' }))
    .then((answer) => {
      if (!controller.signal.aborted) conversation.respond(request.id, answer.decision, answer.reason);
    })
    .finally(() => {
      questions.delete(request.id);
      input.signal.removeEventListener('abort', onAbort);
    });
}

/**
 * The progress message of each event worth one (the first names the conversation); streaming text at
 * most once a second.
 */
function progressReporter(
  progress: ((message: string) => void) | undefined,
  conversationId: string,
): (event: SessionEvent, replyLength: number) => void {
  if (!progress) return () => undefined;
  let lastText = 0;
  return (event, replyLength) => {
    if (event.type === 'text-delta') {
      const now = Date.now();
      if (now - lastText < TEXT_PROGRESS_MS) return;
      lastText = now;
      progress(`writing the reply (${replyLength + event.text.length} characters)`);
      return;
    }
    // The id comes first: a caller that cancels the call before its result still learns which conversation.
    const message =
      event.type === 'turn-started'
        ? `conversation ${conversationId}: turn started (${event.model})`
        : progressMessage(event);
    if (message !== undefined) progress(message);
  };
}

function progressMessage(event: SessionEvent): string | undefined {
  switch (event.type) {
    case 'tool-started':
      return `running ${event.call.name}`;
    case 'tool-finished':
      return `tool call finished (${event.status})`;
    case 'approval-requested':
      return `waiting for approval: ${event.call.name}`;
    case 'retry':
      return `retrying (attempt ${event.attempt} of ${event.maxRetries}): ${event.reason}`;
    case 'compaction-started':
      return 'compacting the history';
    case 'turn-complete':
      return `turn ${event.status}`;
    case 'turn-failed':
      return `turn failed: ${event.error.message}`;
    default:
      return undefined;
  }
}
