/** Pieces every adapter's error mapper shares: how a failure ends a stream, and safe error text. */
import { ProviderError, type StreamEvent, type WireApi } from '../../protocol/index.js';

/** Longest provider error message Cody repeats: enough for any real API message, never a whole HTML page. */
export const MAX_MESSAGE_LENGTH = 500;

/** How a failed stream ends: the error, then the one `finish` (`aborted` for a cancellation). */
export function failureEvents(error: ProviderError): StreamEvent[] {
  return [
    { type: 'error', error },
    { type: 'finish', reason: error.kind === 'aborted' ? 'aborted' : 'error' },
  ];
}

/** An error's message with its cause's, when the cause adds something (`fetch failed (ECONNREFUSED …)`). */
export function describeCause(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // The whole cause chain: "Connection error. (fetch failed: connect ECONNREFUSED 127.0.0.1:9)" names the
  // address that refused, where the first cause alone ("fetch failed") names nothing.
  const causes: string[] = [];
  let cause: unknown = error.cause;
  while (cause instanceof Error && causes.length < 4) {
    if (cause.message !== '' && cause.message !== error.message && !causes.includes(cause.message))
      causes.push(cause.message);
    cause = cause.cause;
  }
  return causes.length > 0 ? `${error.message} (${causes.join(': ')})` : error.message;
}

/** Removes the API key from text that may reach a terminal or a rollout (servers echo bad keys). */
export function scrubSecret(message: string, secret: string | undefined): string {
  return secret && secret.length >= 8 ? message.split(secret).join('[redacted]') : message;
}

export function truncateMessage(message: string): string {
  return message.length > MAX_MESSAGE_LENGTH ? `${message.slice(0, MAX_MESSAGE_LENGTH)}…` : message;
}

/**
 * What is left once an SDK's typed errors are handled: a stream the client could not parse
 * (`malformed`), or a connection that failed or ended early (fetch's "fetch failed", undici's
 * "terminated", ECONNRESET).
 */
export function mapTransportError(
  error: unknown,
  api: WireApi,
  clean: (message: string) => string,
  malformed: boolean,
): ProviderError {
  if (malformed) {
    return new ProviderError({
      api,
      kind: 'invalid-stream',
      message: clean(
        `The server sent a malformed stream: ${error instanceof Error ? error.message : String(error)}`,
      ),
      cause: error,
    });
  }
  return new ProviderError({
    api,
    kind: 'network',
    message: clean(`The connection to the server was lost: ${describeCause(error)}`),
    cause: error,
  });
}
