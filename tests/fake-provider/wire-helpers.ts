/** Small pieces every protocol module of the fake provider uses. */

export function eventStreamHeaders(): Record<string, string> {
  return {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  };
}

/** Splits text into several deltas, as real streams do (roughly word-sized, never empty). */
export function pieces(text: string, size = 8): string[] {
  if (text === '') return [];
  const result: string[] = [];
  for (let index = 0; index < text.length; index += size) result.push(text.slice(index, index + size));
  return result;
}

/** A reply's text deltas: the scripted ones, else its text in pieces of `size`. */
export function textPieces(step: { text?: string; textDeltas?: string[] }, size?: number): string[] {
  return step.textDeltas?.filter((piece) => piece !== '') ?? pieces(step.text ?? '', size);
}

/** The text of a message `content` in any of the four APIs' shapes. */
export function textOfContent(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: unknown) => {
      if (typeof part !== 'object' || part === null) return '';
      const record = part as Record<string, unknown>;
      return typeof record.text === 'string' ? record.text : '';
    })
    .join('');
}

/** OpenAI-style error bodies for the common statuses. */
export function errorBody(status: number): unknown {
  const table: Record<number, { message: string; type: string; code: string | null }> = {
    400: { message: 'Invalid request.', type: 'invalid_request_error', code: null },
    401: {
      message:
        'Incorrect API key provided: sk-fake***. You can find your API key at https://platform.openai.com/account/api-keys.',
      type: 'invalid_request_error',
      code: 'invalid_api_key',
    },
    403: {
      message: 'You are not allowed to sample from this model',
      type: 'invalid_request_error',
      code: null,
    },
    404: {
      message: 'The model `fake` does not exist or you do not have access to it.',
      type: 'invalid_request_error',
      code: 'model_not_found',
    },
    429: {
      message:
        'Rate limit reached for gpt-4.1-mini in organization org-fake on tokens per min (TPM): Limit 30000, Used 30000, Requested 500. Please try again in 20ms.',
      type: 'tokens',
      code: 'rate_limit_exceeded',
    },
    500: {
      message: 'The server had an error while processing your request. Sorry about that!',
      type: 'server_error',
      code: null,
    },
    503: {
      message: 'The engine is currently overloaded, please try again later',
      type: 'server_error',
      code: null,
    },
  };
  const entry = table[status] ?? { message: `HTTP ${status}`, type: 'api_error', code: null };
  return { error: { ...entry, param: null } };
}
