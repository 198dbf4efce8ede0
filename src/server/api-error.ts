/**
 * Errors the HTTP API answers with: a status and a stable machine-readable `code` (clients branch on the
 * code, never on the message). The body is always `{"error": {"code", "message"}}`.
 */
export type ApiErrorCode =
  | 'invalid-json'
  | 'invalid-request'
  | 'unauthorized'
  | 'not-found'
  | 'conversation-not-found'
  | 'approval-not-found'
  | 'ambiguous-id'
  | 'method-not-allowed'
  | 'turn-running'
  | 'conversation-locked'
  | 'payload-too-large'
  | 'provider-auth'
  | 'provider-error'
  | 'corrupt-conversation'
  | 'storage-error'
  | 'shutting-down'
  | 'internal'
  // The web page's guards (web-layer.ts): a Host that is not this server, another origin, no X-Cody-Request,
  // a session cookie without its session's secret.
  | 'misdirected-request'
  | 'forbidden'
  | 'session-secret';

export class ApiError extends Error {
  readonly status: number;
  readonly code: ApiErrorCode;
  /** Headers the answer carries (405: `Allow`). */
  readonly headers: Readonly<Record<string, string>>;
  constructor(
    status: number,
    code: ApiErrorCode,
    message: string,
    headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.headers = headers;
  }
}

export function errorBody(
  code: ApiErrorCode,
  message: string,
): { error: { code: ApiErrorCode; message: string } } {
  return { error: { code, message } };
}
