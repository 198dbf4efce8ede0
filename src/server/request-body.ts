/**
 * Reading a JSON request body with a size limit: a larger body is refused (413) before it is parsed. The
 * body is JSON whatever its content type says (`curl -d` sends form encoding), which is safe: no browser
 * can send the bearer token without a CORS preflight.
 */
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
