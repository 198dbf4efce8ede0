import type { WireApi } from './items.js';

/** Every provider failure, classified once at the adapter boundary. */
export type ProviderErrorKind =
  | 'auth'
  | 'rate-limit'
  | 'overloaded'
  | 'context-overflow'
  | 'bad-request'
  | 'not-found'
  | 'server'
  | 'network'
  | 'aborted'
  | 'invalid-stream';

export interface ProviderErrorOptions {
  api: WireApi;
  kind: ProviderErrorKind;
  message: string;
  statusCode?: number;
  /** Whether repeating the same request may succeed (429, 5xx, 529, network). */
  isRetryable?: boolean;
  /** Server-requested wait before retrying (from `retry-after`/`retry-after-ms`/RetryInfo), in ms. */
  retryAfterMs?: number;
  /** Provider's own error code or type (e.g. `context_length_exceeded`). */
  code?: string;
  cause?: unknown;
}

const RETRYABLE_BY_DEFAULT: ReadonlySet<ProviderErrorKind> = new Set([
  'rate-limit',
  'overloaded',
  'server',
  'network',
]);

/** The one error type core sees from any provider. Core never imports an SDK's error classes. */
export class ProviderError extends Error {
  readonly api: WireApi;
  readonly kind: ProviderErrorKind;
  readonly statusCode: number | undefined;
  readonly isRetryable: boolean;
  readonly retryAfterMs: number | undefined;
  readonly code: string | undefined;

  constructor(options: ProviderErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ProviderError';
    this.api = options.api;
    this.kind = options.kind;
    this.statusCode = options.statusCode;
    this.isRetryable =
      options.isRetryable ??
      (RETRYABLE_BY_DEFAULT.has(options.kind) && !(options.kind === 'network' && refused(options.cause)));
    this.retryAfterMs = options.retryAfterMs;
    // Nothing listens at the address: core names the server and its address (a local server not started).
    this.code =
      options.code ?? (options.kind === 'network' && refused(options.cause) ? CONNECTION_REFUSED : undefined);
  }
}

/** `ProviderError.code` of a network failure whose connection was refused (nothing listens there). */
export const CONNECTION_REFUSED = 'ECONNREFUSED';

/**
 * A refused connection (nothing listens at that address) fails at once: retrying for seconds only delays
 * the message that the server is not running.
 */
function refused(cause: unknown): boolean {
  for (let current = cause, depth = 0; current instanceof Error && depth < 5; depth += 1) {
    if ((current as { code?: unknown }).code === 'ECONNREFUSED') return true;
    current = current.cause;
  }
  return false;
}

/**
 * Raised by a client when no API key is configured; names the environment variable to set and, when the
 * provider's key can be stored, the `cody auth login` to run.
 */
export class MissingApiKeyError extends Error {
  readonly variable: string;
  constructor(variable: string, api: WireApi, loginProvider?: string) {
    super(
      `Missing API key for ${api}: ${loginProvider !== undefined ? `run cody auth login ${loginProvider} or ` : ''}set the ${variable} environment variable.`,
    );
    this.name = 'MissingApiKeyError';
    this.variable = variable;
  }
}
