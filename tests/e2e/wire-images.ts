/**
 * Images on the wire in each API's own shape, for the image tests: the four selections they run on, the
 * image as each API's user content carries it, the user-side parts of a request body, and the names of
 * the tools a request offers.
 */
import { PNG_1X1_BASE64 } from './image-fixtures.js';

export const DATA_URL = `data:image/png;base64,${PNG_1X1_BASE64}`;

export type Api = 'openai-responses' | 'openai-chat' | 'anthropic-messages' | 'gemini';
export const SELECTIONS: Record<
  Api,
  { provider: 'openai' | 'anthropic' | 'google'; api: string; model: string }
> = {
  'openai-responses': { provider: 'openai', api: 'responses', model: 'gpt-4.1-mini' },
  'openai-chat': { provider: 'openai', api: 'chat', model: 'gpt-4.1-mini' },
  'anthropic-messages': { provider: 'anthropic', api: 'messages', model: 'claude-sonnet-4-6' },
  gemini: { provider: 'google', api: 'gemini', model: 'gemini-2.5-flash' },
};
export const APIS = Object.keys(SELECTIONS) as Api[];

/** The image as each API's user content carries it. */
export const USER_IMAGE: Record<Api, unknown> = {
  'openai-responses': { type: 'input_image', image_url: DATA_URL, detail: 'auto' },
  'openai-chat': { type: 'image_url', image_url: { url: DATA_URL } },
  'anthropic-messages': {
    type: 'image',
    source: { type: 'base64', media_type: 'image/png', data: PNG_1X1_BASE64 },
  },
  gemini: { inlineData: { mimeType: 'image/png', data: PNG_1X1_BASE64 } },
};

/** The content parts (or blocks) of every user-side message of a request body, flattened. */
export function userParts(api: Api, body: unknown): unknown[] {
  const record = body as Record<string, unknown>;
  switch (api) {
    case 'openai-responses':
      return (record.input as Array<{ role?: string; content?: unknown; output?: unknown }>).flatMap(
        (item) => [
          ...(item.role === 'user' && Array.isArray(item.content) ? item.content : []),
          ...(Array.isArray(item.output) ? (item.output as unknown[]) : []),
        ],
      );
    case 'openai-chat':
      return (record.messages as Array<{ role: string; content: unknown }>).flatMap((message) =>
        message.role === 'user' && Array.isArray(message.content) ? (message.content as unknown[]) : [],
      );
    case 'anthropic-messages':
      return (record.messages as Array<{ role: string; content: unknown }>).flatMap((message) =>
        message.role === 'user' && Array.isArray(message.content)
          ? (message.content as Array<{ type: string; content?: unknown }>).flatMap((block) =>
              block.type === 'tool_result' && Array.isArray(block.content)
                ? [block, ...(block.content as unknown[])]
                : [block],
            )
          : [],
      );
    case 'gemini':
      return (record.contents as Array<{ role: string; parts: unknown[] }>).flatMap((content) =>
        content.role === 'user' ? content.parts : [],
      );
  }
}

type Json = Record<string, unknown>;

/** The names of the tools a request body offers, in each API's shape. */
export function offeredTools(api: Api, body: unknown): string[] {
  const tools = ((body as Json).tools ?? []) as Json[];
  switch (api) {
    case 'openai-chat':
      return tools.map((tool) => String((tool.function as Json | undefined)?.name));
    case 'gemini':
      return tools.flatMap((tool) =>
        ((tool.functionDeclarations ?? []) as Json[]).map((declaration) => String(declaration.name)),
      );
    default:
      return tools.map((tool) => String(tool.name));
  }
}
