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
        live.assertIdle(id);
        return { status: 202, body: { turnId: await live.startTurn(id, text) } };
      },
    },
    {
      method: 'POST',
      path: '/conversations/{id}/compact',
      handler: async ({ params, body }) => {
        const id = conversationIdParam(params);
        const { focus } = parseInput(compactBody, await body(), 'compact request');
        live.assertIdle(id);
        return { status: 202, body: { turnId: await live.startCompaction(id, focus) } };
      },
    },
    {
      method: 'POST',
      path: '/conversations/{id}/abort',
      handler: async ({ params }) => {
        const id = conversationIdParam(params);
        await engine.get(id);
        return { status: 202, body: { conversationId: id, aborted: live.abort(id) } };
      },
    },
    {
      method: 'POST',
      path: '/approvals/{id}',
      handler: async ({ params, body }) => {
        const { decision, reason } = parseInput(approvalBody, await body(), 'approval');
        const approvalId = params.id ?? '';
        const conversationId = await live.respond(approvalId, decision, reason);
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
        const log = live.log(id);
        const stream = new SseStream(response, {
          heartbeatMs: context.heartbeatMs,
          headers: context.extraHeaders,
        });
        context.streams.add(stream);
        const replay = log.replayAfter(lastEventId);
        if (replay.gap) {
          // No id: the client's Last-Event-ID stays where it was. The transcript has what was missed.
          stream.send({ data: JSON.stringify({ type: 'replay-gap', conversationId: id }) });
        }
        for (const event of replay.events) stream.send(event);
        const unsubscribe = log.subscribe((event) => stream.send(event));
        stream.onClose(() => {
          unsubscribe();
          context.streams.delete(stream);
        });
        return undefined;
      },
    },
  ];
}
