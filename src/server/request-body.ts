/**
 * Reading a JSON request body with a size limit: a larger body is refused (413) before it is parsed. The
 * body is JSON whatever its content type says (`curl -d` sends form encoding), which is safe: no browser
 * can send the bearer token without a CORS preflight.
 */
import type { IncomingMessage } from 'node:http';
import { ApiError } from './api-error.js';

/** 1 MiB: a message far longer than any context window allows, small enough to never hurt the server. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/**
 * A message body with images: room for the base64 of what the APIs take in one request (OpenAI's
 * 50 MB), so the size checks that name the API answer rather than a bare 413.
 */
export const MAX_IMAGE_BODY_BYTES = 72 * 1024 * 1024;

export async function readJsonBody(request: IncomingMessage, maxBytes: number): Promise<unknown> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  const text = await readText(request, maxBytes);
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ApiError(
      400,
      'invalid-json',
      `The request body is not valid JSON: ${(error as Error).message}`,
    );
  }
}

/**
 * The body as text, from the stream's events rather than `for await` (an async iterator over the
 * request, and its ticks, for what is one chunk on almost every request); stops reading past `maxBytes`.
 */
function readText(request: IncomingMessage, maxBytes: number): Promise<string> {
  // Already read to its end (by an earlier call): nothing more will come, as `for await` would see.
  if (request.readableEnded) return Promise.resolve('');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (error?: Error): void => {
      request.off('data', onData).off('end', onEnd).off('error', settle).off('close', onClose);
      if (error) reject(error);
      else resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBytes) {
        request.pause();
        settle(tooLarge(maxBytes));
      } else chunks.push(chunk);
    };
    const onEnd = (): void => settle();
    const onClose = (): void => settle(new ApiError(400, 'invalid-json', 'The request body ended early.'));
    request.on('data', onData).on('end', onEnd).on('error', settle).on('close', onClose);
  });
}

function tooLarge(maxBytes: number): ApiError {
  return new ApiError(413, 'payload-too-large', `The request body is larger than ${maxBytes} bytes.`);
}
