/** Turns over HTTP: start one, compact, abort, answer an approval, and the SSE stream of events. */
import { approvalBody, compactBody, parseInput, parseMessage } from './request-schemas.js';
import type { Route } from './router.js';
import { conversationIdParam, type ServerContext } from './server-context.js';
import { SseStream } from './sse.js';

export function turnRoutes(context: ServerContext): Route[] {
  const { engine, live } = context;
  return [
    {
      method: 'POST',
      path: '/conversations/{id}/messages',
      handler: async ({ params, body }) => {
        const id = conversationIdParam(params);
        const { text } = parseMessage(await body());
        await live.assertIdle(id);
        return { status: 202, body: { turnId: await live.startTurn(id, text) } };
      },
    },
    {
      method: 'POST',
      path: '/conversations/{id}/compact',
      handler: async ({ params, body }) => {
        const id = conversationIdParam(params);
        const { focus } = parseInput(compactBody, await body(), 'compact request');
        await live.assertIdle(id);
        return { status: 202, body: { turnId: await live.startCompaction(id, focus) } };
      },
    },
    ...(['POST /conversations/{id}/abort', 'DELETE /conversations/{id}/turn'] as const).map(
      (route): Route => ({
        method: route.startsWith('POST') ? 'POST' : 'DELETE',
        path: route.slice(route.indexOf(' ') + 1),
        handler: async ({ params }) => {
          const id = conversationIdParam(params);
          if (!live.isOpen(id)) await engine.get(id);
          return { status: 202, body: { conversationId: id, aborted: live.abort(id) } };
        },
      }),
    ),
    {
      method: 'POST',
      path: '/approvals/{id}',
      handler: async ({ params, body }) => {
        const { decision, reason } = parseInput(approvalBody, await body(), 'approval');
        const approvalId = params.id ?? '';
        const conversationId = live.respond(approvalId, decision, reason);
        return { status: 200, body: { approvalId, conversationId, decision } };
      },
    },
    {
      method: 'GET',
      path: '/conversations/{id}/events',
      handler: async ({ params, query, request, response }) => {
        const id = conversationIdParam(params);
        // 404 for a conversation that is not there; one this server has open needs no look at the store.
        if (!live.isOpen(id)) await engine.get(id);
        const header = request.headers['last-event-id'];
        const lastEventId =
          (Array.isArray(header) ? header[0] : header) ?? query.get('lastEventId') ?? undefined;
        const stream = new SseStream(response, {
          heartbeatMs: context.heartbeatMs,
          headers: context.extraHeaders,
        });
        context.streams.add(stream);
        const detach = await live.attach(id, lastEventId, (event) => stream.send(event));
        stream.onClose(() => {
          detach();
          context.streams.delete(stream);
        });
        return undefined;
      },
    },
  ];
}
