/** Engine errors (a `kind`, never an exit code) as HTTP answers with a stable code. */
import { CodyError, type ErrorKind } from '../core/index.js';
import { MissingApiKeyError, ProviderError } from '../protocol/errors.js';
import { ApiError, type ApiErrorCode } from './api-error.js';
import type { EngineEvent } from './engine-port.js';

const BY_KIND: Record<ErrorKind, { status: number; code: ApiErrorCode }> = {
  usage: { status: 400, code: 'invalid-request' },
  'not-found': { status: 404, code: 'conversation-not-found' },
  ambiguous: { status: 400, code: 'ambiguous-id' },
  auth: { status: 502, code: 'provider-auth' },
  provider: { status: 502, code: 'provider-error' },
  corrupt: { status: 500, code: 'corrupt-conversation' },
  locked: { status: 409, code: 'conversation-locked' },
  storage: { status: 500, code: 'storage-error' },
  busy: { status: 409, code: 'turn-running' },
  interrupted: { status: 409, code: 'turn-running' },
  failure: { status: 500, code: 'internal' },
  internal: { status: 500, code: 'internal' },
};

export function describeError(error: unknown): { kind: ErrorKind; message: string } {
  if (error instanceof CodyError) {
    return { kind: error.kind, message: error.message };
  }
  if (error instanceof MissingApiKeyError) return { kind: 'auth', message: error.message };
  if (error instanceof ProviderError) {
    return { kind: error.kind === 'auth' ? 'auth' : 'provider', message: `${error.api}: ${error.message}` };
  }
  return { kind: 'internal', message: 'Internal error; see the server log.' };
}

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const { kind, message } = describeError(error);
  const { status, code } = BY_KIND[kind];
  return new ApiError(status, code, message);
}

/** The answer for an engine failure reported as an event (`turn-failed`'s `error.kind` and message). */
export function apiErrorOf(kind: string, message: string): ApiError {
  const known = (Object.keys(BY_KIND) as ErrorKind[]).find((candidate) => candidate === kind);
  const { status, code } = BY_KIND[known ?? 'internal'];
  return new ApiError(status, code, message);
}

/** The error of a run that failed before it began, as the POST's answer (`usage` → 400, `auth` → 502…). */
export function failedRun(event: EngineEvent): ApiError {
  const error = event.error as { kind?: unknown; message?: unknown } | undefined;
  const kind = typeof error?.kind === 'string' ? error.kind : 'internal';
  const message = typeof error?.message === 'string' ? error.message : 'The turn could not start.';
  return apiErrorOf(kind, message);
}
