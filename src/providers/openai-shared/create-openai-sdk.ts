/** The one place both OpenAI adapters configure the official SDK: key, endpoint, retries, timeout. */
import OpenAI from 'openai';
import type { ClientOptions } from '../../protocol/index.js';
import { bearerFetch } from '../shared/bearer-fetch.js';
import { missingApiKey, resolveApiKey, resolveBaseUrl } from '../shared/endpoint.js';
import { nodeHttpFetch } from '../shared/node-http-fetch.js';

/**
 * Sent when no key is set and the endpoint is not OpenAI's: local OpenAI-compatible servers (Ollama,
 * vLLM, LM Studio) ignore the Authorization header, but the SDK refuses to build a client without a key.
 */
export const LOCAL_SERVER_PLACEHOLDER_KEY = 'no-key-needed';

/** The endpoint to call: `options.baseUrl` (config), then `OPENAI_BASE_URL`, then OpenAI's. */
export function resolveOpenAIBaseUrl(options: Pick<ClientOptions, 'baseUrl' | 'env'>): string {
  return resolveBaseUrl({ ...options, api: 'openai-chat' });
}

/** Whether the endpoint is OpenAI's own, which always needs a key (an unparsable URL is treated as such). */
export function isOfficialOpenAIEndpoint(baseUrl: string): boolean {
  try {
    const host = new URL(baseUrl).hostname;
    return host === 'openai.com' || host.endsWith('.openai.com');
  } catch {
    return true;
  }
}

/** A configured SDK client and what was resolved to build it. */
export interface OpenAISdkHandle {
  sdk: OpenAI;
  /** The key actually sent, so error messages can be scrubbed of it. */
  apiKey: string;
  baseUrl: string;
}

/**
 * Builds the SDK client. Throws `MissingApiKeyError` synchronously when OpenAI's endpoint is used without
 * `OPENAI_API_KEY`. Everything is read from `options.env`, never from `process.env` behind its back.
 */
export function createOpenAISdk(options: ClientOptions): OpenAISdkHandle {
  const baseUrl = resolveOpenAIBaseUrl(options);
  // A signed-in token is set per request by bearerFetch; the SDK only needs a non-empty key to start.
  let apiKey = options.bearer ? 'signed-in' : (options.apiKey ?? resolveApiKey(options) ?? '');
  if (apiKey === '') {
    if (isOfficialOpenAIEndpoint(baseUrl)) throw missingApiKey(options.api);
    apiKey = LOCAL_SERVER_PLACEHOLDER_KEY;
  }
  const sdk = new OpenAI({
    apiKey,
    baseURL: baseUrl,
    organization: options.env.OPENAI_ORG_ID || null,
    project: options.env.OPENAI_PROJECT_ID || null,
    webhookSecret: null,
    ...(options.headers ? { defaultHeaders: { ...options.headers } } : {}),
    // Requests go over node:http (see node-http-fetch.ts); a signed-in bearer wraps that same transport.
    fetch: options.bearer ? bearerFetch(options.bearer, { fetch: nodeHttpFetch }) : nodeHttpFetch,
    // Retry is owned by core's Session, in exactly one place: SDK retries on top would turn one 429
    // into nine requests, and cannot see a stream that dies after tokens were shown.
    maxRetries: 0,
    ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
  });
  return { sdk, apiKey, baseUrl };
}
