/** The conversation store over HTTP: list, create, get, delete, fork, transcript, state, selection. */
import type { z } from 'zod';
import type { EngineConversation } from './engine-port.js';
import type { Route } from './router.js';
import {
  createConversationBody,
  forkBody,
  messagesQuery,
  parseInput,
  selectionBody,
  approvalPolicyBody,
  reasoningBody,
} from './request-schemas.js';
import { conversationIdParam, type ServerContext } from './server-context.js';

export function conversationRoutes(context: ServerContext): Route[] {
  const { engine, live } = context;
  return [
    {
      method: 'GET',
      path: '/conversations',
      handler: async () => ({ status: 200, body: { conversations: await engine.list() } }),
    },
    {
      method: 'POST',
      path: '/conversations',
      handler: async ({ body }) => {
        const selection = parseInput(createConversationBody, await body(), 'conversation');
        const conversation = await engine.create(
          selection.provider !== undefined ? { ...selection, provider: selection.provider } : undefined,
        );
        live.adopt(conversation);
        return { status: 201, body: await engine.get(conversation.id) };
      },
    },
    {
      method: 'GET',
      path: '/conversations/{id}',
      handler: async ({ params }) => {
        const id = conversationIdParam(params);
        return { status: 200, body: await engine.get(id) };
      },
    },
    {
      method: 'DELETE',
      path: '/conversations/{id}',
      handler: async ({ params }) => {
        const id = conversationIdParam(params);
        await engine.get(id);
        // A turn still running (waiting for an approval, say) is interrupted and recorded first.
        await engine.delete(id, { abortRunning: true });
        return { status: 200, body: { id, deleted: true } };
      },
    },
    {
      method: 'POST',
      path: '/conversations/{id}/fork',
      handler: async ({ params, body }) => {
        const id = conversationIdParam(params);
        const options = parseInput(forkBody, await body(), 'fork request');
        const fork = await engine.fork(id, options);
        live.adopt(fork);
        const summary = (await engine.get(fork.id)) as Record<string, unknown>;
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
      handler: async ({ params }) => {
        const id = conversationIdParam(params);
        const { state, turnId, pendingApprovals, plan, status } = await live.state(id);
        return { status: 200, body: { conversationId: id, state, turnId, pendingApprovals, plan, status } };
      },
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
