/**
 * `session/prompt`: one Cody turn (or `/compact`), its events streamed as session updates, answered with
 * the stop reason. A cancelled prompt answers `cancelled`, never an error; a missing or rejected key
 * answers `auth_required`; any other failure is an error the editor shows.
 */
import type { AgentContext, PromptRequest, PromptResponse, StopReason } from '@agentclientprotocol/sdk';
import { RequestError } from '@agentclientprotocol/sdk';
import { failureOf } from '../core/index.js';
import type { TurnEvent } from './core-types.js';
import { promptInput } from './prompt-input.js';
import type { AcpSession } from './sessions.js';
import { TurnUpdates, type TurnSink } from './turn-updates.js';

/** Cody's turn loop stops a turn after this many rounds of tool calls (its failure says so). */
const TOOL_ROUND_LIMIT = /rounds of tool calls in one turn/;

export async function runPrompt(
  session: AcpSession,
  params: PromptRequest,
  client: AgentContext,
): Promise<PromptResponse> {
  const { conversation } = session;
  if (session.running)
    throw RequestError.invalidRequest(undefined, 'a prompt is already running in this session');
  const input = promptInput(params.prompt);
  const undo = /^\/undo(?:\s+(\d+))?$/.exec(input.text.trim());
  if (undo) return runUndo(session, client, Number(undo[1] ?? '1'));
  const updates = new TurnUpdates(sinkOf(session, client));
  session.running = updates;
  session.cancelled = false;
  let last: TurnEvent | undefined;
  try {
    const compact = /^\/compact(?:\s+([\s\S]*))?$/.exec(input.text.trim());
    const events = compact
      ? conversation.compact(compact[1]?.trim() || undefined)
      : conversation.submit(input.text, input.images.length > 0 ? { images: input.images } : {});
    for await (const event of events) {
      last = event;
      await updates.handle(event);
      if (event.type === 'compaction-finished' && event.trigger === 'manual') {
        const text = `Compacted the conversation: ${event.tokensBefore} → ${event.tokensAfter} tokens.`;
        await sinkOf(session, client).update({
          sessionUpdate: 'agent_message_chunk',
          content: { type: 'text', text },
        });
      }
    }
    await updates.finishDangling();
  } catch (error) {
    throw error instanceof RequestError ? error : errorOf(failureOf(error));
  } finally {
    updates.cancelPermissions();
    session.running = undefined;
  }
  return { stopReason: stopReasonOf(last, wasCancelled(session)) };
}

/** `/undo [N]`: takes back what the last N turns that changed files did (files changed since are kept). */
async function runUndo(session: AcpSession, client: AgentContext, turns: number): Promise<PromptResponse> {
  if (session.conversation.busy)
    throw RequestError.invalidRequest(undefined, 'a turn is running in this session');
  let text: string;
  try {
    const result = await session.engine.undo(session.id, { turns });
    const list = (label: string, paths: readonly string[]): string[] =>
      paths.length > 0 ? [`${label}: ${paths.join(', ')}`] : [];
    text = [
      `Undid ${result.undone.length === 1 ? 'turn' : 'turns'} ${result.undone.join(', ')}.`,
      ...list('Restored', result.restored),
      ...list('Removed', result.removed),
      ...list('Kept (changed since)', result.kept),
    ].join('\n');
  } catch (error) {
    text = `Nothing undone: ${failureOf(error).message}`;
  }
  await client.notify('session/update', {
    sessionId: session.id,
    update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } },
  });
  return { stopReason: 'end_turn' };
}

/** Whether session/cancel came while the prompt ran (read after the turn: the cancel sets it meanwhile). */
function wasCancelled(session: AcpSession): boolean {
  return session.cancelled === true;
}

function sinkOf(session: AcpSession, client: AgentContext): TurnSink {
  const sessionId = session.id;
  return {
    cwd: session.cwd,
    cost: session.cost,
    update: (update) => client.notify('session/update', { sessionId, update }),
    requestPermission: (params, signal) =>
      client.request('session/request_permission', { sessionId, ...params }, { cancellationSignal: signal }),
    respond: (approvalId, decision) => {
      session.conversation.respond(approvalId, decision);
    },
  };
}

/** The stop reason of the turn's last event; throws the error a failed turn answers with. */
function stopReasonOf(last: TurnEvent | undefined, cancelled: boolean): StopReason {
  if (cancelled) return 'cancelled';
  if (last?.type === 'turn-complete') {
    if (last.status === 'interrupted') return 'cancelled';
    if (last.finishReason === 'length') return 'max_tokens';
    if (last.finishReason === 'content-filter') return 'refusal';
    return 'end_turn';
  }
  if (last?.type === 'turn-failed') {
    if (last.error.kind === 'interrupted') return 'cancelled';
    if (last.error.kind === 'failure' && TOOL_ROUND_LIMIT.test(last.error.message))
      return 'max_turn_requests';
    throw errorOf(last.error);
  }
  throw RequestError.internalError(undefined, 'the turn ended without a result');
}

function errorOf(failure: { kind: string; message: string }): RequestError {
  if (failure.kind === 'auth') return RequestError.authRequired({ reason: failure.message }, failure.message);
  if (failure.kind === 'usage')
    return RequestError.invalidParams({ reason: failure.message }, failure.message);
  if (failure.kind === 'busy')
    return RequestError.invalidRequest({ reason: failure.message }, failure.message);
  return new RequestError(-32603, failure.message, { kind: failure.kind });
}
