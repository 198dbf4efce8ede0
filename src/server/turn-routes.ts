/** Turns over HTTP: start one, compact, abort, answer an approval, and the SSE stream of events. */
import { loadImage } from '../core/index.js';
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
      handler: postMessage(context),
      imageBody: true,
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
      handler: streamEvents(context),
    },
  ];
}

/** POST …/messages: the images checked before the turn (no PNG/JPEG/GIF/WebP, or over 20 MB: 400), then a turn starts. */
function postMessage({ live }: ServerContext): Route['handler'] {
  return async ({ params, body }) => {
    const id = conversationIdParam(params);
    const { text, images } = parseMessage(await body());
    const loaded = await Promise.all(
      (images ?? []).map((image, index) =>
        loadImage({ data: image.data, name: image.name ?? `image-${index + 1}` }),
      ),
    );
    await live.assertIdle(id);
    const attached = loaded.map((image) => ({ data: image.bytes, name: image.name }));
    return { status: 202, body: { turnId: await live.startTurn(id, text, attached) } };
  };
}

/** GET …/events: the conversation's SSE stream, replayed from Last-Event-ID (header or query). */
function streamEvents(context: ServerContext): Route['handler'] {
  const { engine, live } = context;
  return async ({ params, query, request, response }) => {
    const id = conversationIdParam(params);
    // 404 for a conversation that is not there; one this server has open needs no look at the store.
    if (!live.isOpen(id)) await engine.get(id);
    const header = request.headers['last-event-id'];
    const lastEventId = (Array.isArray(header) ? header[0] : header) ?? query.get('lastEventId') ?? undefined;
    const stream = new SseStream(response, {
      heartbeatMs: context.heartbeatMs,
      headers: context.extraHeaders,
      redact: context.redactFrame,
    });
    context.streams.add(stream);
    const streams = context.conversationStreams.get(id) ?? new Set();
    context.conversationStreams.set(id, streams.add(stream));
    const detach = await live.attach(id, lastEventId, (event) => stream.send(event));
    stream.onClose(() => {
      detach();
      context.streams.delete(stream);
      streams.delete(stream);
      if (streams.size === 0 && context.conversationStreams.get(id) === streams)
        context.conversationStreams.delete(id);
    });
    return undefined;
  };
}
