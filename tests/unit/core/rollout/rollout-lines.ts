/** Hand-written rollout lines for the readers' tests: one fixed time, the Codex line shape. */
const T = '2026-01-01T00:00:00.000Z';

export const line = (type: string, payload: unknown): string =>
  JSON.stringify({ timestamp: T, type, payload });

export const metaLine = (id: string): string =>
  line('session_meta', { id, timestamp: T, provider: 'openai', api: 'openai-chat', model: 'm' });

export const item = (role: string, text: string) => ({
  type: 'message',
  role,
  content: [{ type: role === 'assistant' ? 'output_text' : 'input_text', text }],
});

/** A typed message and its reply `re <text>`. */
export const turn = (text: string): string[] => [
  line('response_item', item('user', text)),
  line('response_item', item('assistant', `re ${text}`)),
];
