/** The conversation store over HTTP: list, create, get, delete, fork, transcript, state, selection. */
import type { z } from 'zod';
import { inferProvider } from '../core/index.js';
import type { EngineConversation } from './engine-port.js';
import type { Reply, Route } from './router.js';
import {
  createConversationBody,
  forkBody,
  messagesQuery,
  parseInput,
  selectionBody,
  approvalPolicyBody,
  reasoningBody,
  titleBody,
} from './request-schemas.js';
import { conversationIdParam, summaryView, type ServerContext } from './server-context.js';

export function conversationRoutes(context: ServerContext): Route[] {
  const { engine, live, signals } = context;
  return [
    {
      method: 'GET',
      path: '/conversations',
      handler: async () => ({
        status: 200,
        body: { conversations: (await engine.list()).map(summaryView) },
      }),
    },
    {
      method: 'POST',
      path: '/conversations',
      handler: async ({ body }) => createConversation(context, await body()),
    },
    {
      method: 'GET',
      path: '/conversations/{id}',
      handler: async ({ params }) => {
        const id = conversationIdParam(params);
        return { status: 200, body: summaryView(await engine.get(id)) };
      },
    },
    {
      method: 'PUT',
      path: '/conversations/{id}/title',
      handler: async ({ params, body }) =>
        renameConversation(context, conversationIdParam(params), await body()),
    },
    {
      method: 'DELETE',
      path: '/conversations/{id}',
      handler: async ({ params }) => deleteConversation(context, conversationIdParam(params)),
    },
    {
      method: 'POST',
      path: '/conversations/{id}/fork',
      handler: async ({ params, body }) => {
        const id = conversationIdParam(params);
        const options = parseInput(forkBody, await body(), 'fork request');
        const fork = await engine.fork(id, options);
        live.adopt(fork);
        const summary = summaryView(await engine.get(fork.id)) as Record<string, unknown>;
        signals.publish({ type: 'conversation-created', conversationId: fork.id, conversation: summary });
        return { status: 201, body: { ...summary, parentId: id, ...options } };
      },
    },
    {
      method: 'GET',
      path: '/conversations/{id}/messages',
      handler: async ({ params, query }) => {
        const id = conversationIdParam(params);
        const options = parseInput(messagesQuery, Object.fromEntries(query), 'query');
        return { status: 200, body: await engine.transcript(id, options) };
      },
    },
    {
      method: 'GET',
      path: '/conversations/{id}/state',
      handler: async ({ params }) => conversationState(context, conversationIdParam(params)),
    },
    settingRoute(context, 'selection', selectionBody, 'selection', (conversation, selection) =>
      conversation.setSelection(selection),
    ),
    settingRoute(
      context,
      'approval-policy',
      approvalPolicyBody,
      'approval policy',
      (conversation, { policy }) => conversation.setApprovalPolicy(policy),
    ),
    settingRoute(context, 'reasoning', reasoningBody, 'reasoning level', (conversation, { level }) =>
      conversation.setReasoning(level),
    ),
  ];
}

/** `POST /conversations`: a new conversation, announced to every client. */
async function createConversation({ engine, live, signals }: ServerContext, input: unknown): Promise<Reply> {
  const selection = parseInput(createConversationBody, input, 'conversation');
  // An API or model without a provider names the provider it belongs to (or is refused): never the
  // configured default for a choice that plainly meant another.
  const named =
    selection.provider !== undefined || selection.api !== undefined || selection.model !== undefined;
  const conversation = await engine.create(
    named ? { ...selection, provider: selection.provider ?? inferProvider(selection) } : undefined,
  );
  live.adopt(conversation);
  const summary = summaryView(await engine.get(conversation.id));
  signals.publish({
    type: 'conversation-created',
    conversationId: conversation.id,
    conversation: summary,
  });
  return { status: 201, body: summary };
}

/** `PUT /conversations/:id/title`: the new title, announced to every client. */
async function renameConversation(
  { engine, signals }: ServerContext,
  id: string,
  input: unknown,
): Promise<Reply> {
  const { title } = parseInput(titleBody, input, 'title');
  const summary = summaryView(await engine.rename(id, title));
  const shown = (summary as { title?: unknown }).title;
  signals.publish({
    type: 'conversation-renamed',
    conversationId: id,
    title: typeof shown === 'string' ? shown : '',
  });
  return { status: 200, body: summary };
}

/** `DELETE /conversations/:id`: a running turn is interrupted and recorded first, then the file goes. */
async function deleteConversation(context: ServerContext, id: string): Promise<Reply> {
  const { engine, live, signals } = context;
  await engine.get(id);
  const running = live.running(id);
  // A turn still running (waiting for an approval, say) is interrupted and recorded first.
  await engine.delete(id, { abortRunning: true });
  // Its clients see the turn's last event, then `conversation-deleted`, then the end of the stream.
  await running;
  endStreams(context, id);
  signals.publish({ type: 'conversation-deleted', conversationId: id });
  return { status: 200, body: { id, deleted: true } };
}

/** `GET /conversations/:id/state`: what a client needs to show the conversation as it is now. */
async function conversationState({ live }: ServerContext, id: string): Promise<Reply> {
  const { state, turnId, replayAfter, pendingApprovals, plan, status, elsewhere } = await live.state(id);
  return {
    status: 200,
    body: {
      conversationId: id,
      state,
      turnId,
      replayAfter,
      pendingApprovals,
      plan,
      status,
      ...(elsewhere ? { elsewhere } : {}),
    },
  };
}

/**
 * `PUT /conversations/:id/<setting>`: changes one setting of a conversation with no turn running and
 * answers with its status.
 */
function settingRoute<T>(
  { live }: ServerContext,
  setting: string,
  schema: z.ZodType<T>,
  what: string,
  apply: (conversation: EngineConversation, input: T) => unknown,
): Route {
  return {
    method: 'PUT',
    path: `/conversations/{id}/${setting}`,
    handler: async ({ params, body }) => {
      const id = conversationIdParam(params);
      const input = parseInput(schema, await body(), what);
      await live.assertIdle(id);
      const conversation = await live.handle(id);
      await apply(conversation, input);
      return { status: 200, body: { conversationId: id, status: await conversation.status() } };
    },
  };
}

/** Ends every event stream of a deleted conversation with a last `conversation-deleted` event. */
function endStreams({ conversationStreams }: ServerContext, id: string): void {
  const data = JSON.stringify({ type: 'conversation-deleted', conversationId: id });
  for (const stream of conversationStreams.get(id) ?? []) {
    stream.send({ event: 'conversation-deleted', data, urgent: true });
    stream.end();
  }
  conversationStreams.delete(id);
}
