/** Reading a JSON request body with a size limit: a larger body is refused (413) before it is parsed. */
import type { IncomingMessage } from 'node:http';
import { ApiError } from './api-error.js';

/** 1 MiB: a message far longer than any context window allows, small enough to never hurt the server. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

export async function readJsonBody(request: IncomingMessage, maxBytes: number): Promise<unknown> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw tooLarge(maxBytes);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  const type = request.headers['content-type'];
  if (type !== undefined && !/^application\/([\w.+-]*\+)?json\b/i.test(type)) {
    throw new ApiError(415, 'unsupported-media-type', `Send the body as application/json (got ${type}).`);
  }
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

function tooLarge(maxBytes: number): ApiError {
  return new ApiError(413, 'payload-too-large', `The request body is larger than ${maxBytes} bytes.`);
}
