/** Exporting a conversation over HTTP (md, json, html): what `cody export` writes, as JSON for the page. */
import { z } from 'zod';
import type { Route } from './router.js';
import { parseInput } from './request-schemas.js';
import { conversationIdParam, type ServerContext } from './server-context.js';

export const exportQuery = z.object({ format: z.enum(['md', 'json', 'html']).optional() }).strict();

export function exportRoutes({ engine }: ServerContext): Route[] {
  return [
    {
      method: 'GET',
      path: '/conversations/{id}/export',
      handler: async ({ params, query }) => {
        const id = conversationIdParam(params);
        const { format = 'md' } = parseInput(exportQuery, Object.fromEntries(query), 'query');
        const text = await engine.export(id, format);
        return { status: 200, body: { id, format, fileName: `cody-${id.slice(0, 8)}.${format}`, text } };
      },
    },
  ];
}
