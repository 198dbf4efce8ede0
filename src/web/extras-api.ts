/** The routes behind the conversation actions (switch model, rename, delete, fork, export), over api.ts. */
import { request } from './api.js';
import type { ConversationSummary, ForkPoint } from './types.js';

const path = (id: string, rest = ''): string => `/conversations/${encodeURIComponent(id)}${rest}`;

export interface ExportDocument {
  id: string;
  format: 'md' | 'json' | 'html';
  fileName: string;
  text: string;
}

export const extrasApi = {
  /** Provider, API and model from the next turn on (409 while a turn runs). */
  setSelection: (id: string, selection: { provider: string; api?: string; model?: string }) =>
    request<{ conversationId: string; status: Record<string, unknown> }>(
      'PUT',
      path(id, '/selection'),
      selection,
    ),
  rename: (id: string, title: string) => request<ConversationSummary>('PUT', path(id, '/title'), { title }),
  remove: (id: string) => request<{ id: string; deleted: boolean }>('DELETE', path(id)),
  /** A new conversation branched after a user message: by its user turn, or by its transcript cursor. */
  fork: (id: string, at: ForkPoint) => request<ConversationSummary>('POST', path(id, '/fork'), at),
  export: (id: string, format: 'md' | 'json' | 'html') =>
    request<ExportDocument>('GET', path(id, `/export?format=${format}`)),
};
