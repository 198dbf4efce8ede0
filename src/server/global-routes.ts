/** What is not one conversation's: the providers on offer, and the signals of every conversation. */
import { providerCatalogue } from '../core/index.js';
import type { Route } from './router.js';
import type { ServerContext } from './server-context.js';
import { SseStream } from './sse.js';

export function globalRoutes(context: ServerContext): Route[] {
  return [
    {
      method: 'GET',
      path: '/providers',
      handler: async () => ({ status: 200, body: { providers: providerCatalogue() } }),
    },
    {
      method: 'GET',
      path: '/events',
      handler: async ({ query, request, response }) => {
        const header = request.headers['last-event-id'];
        const lastEventId =
          (Array.isArray(header) ? header[0] : header) ?? query.get('lastEventId') ?? undefined;
        const stream = new SseStream(response, {
          heartbeatMs: context.heartbeatMs,
          headers: context.extraHeaders,
          redact: context.redactFrame,
        });
        context.streams.add(stream);
        const detach = context.signals.attach(lastEventId, (event) => stream.send(event));
        stream.onClose(() => {
          detach();
          context.streams.delete(stream);
        });
        return undefined;
      },
    },
  ];
}
