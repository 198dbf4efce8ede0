/**
 * Bedrock errors → the one `ProviderError`. The SDK throws one class per AWS error (named by `name`,
 * with `$metadata.httpStatusCode` and `$fault`), both for an HTTP error and for an exception frame inside
 * the event stream; credential lookups throw `CredentialsProviderError`.
 */
import { isRecord, ProviderError, type ProviderErrorKind } from '../../protocol/index.js';
import { failureEvents, mapTransportError, truncateMessage } from '../shared/error-text.js';
import { BEDROCK_API } from './definition.js';

export { failureEvents };

/** Bedrock's wordings of "the prompt does not fit" (the model's own, passed through a 400). */
const CONTEXT_OVERFLOW_MESSAGE =
  /input is too long|prompt is too long|too many (input )?tokens|exceed(s|ed)? (the )?(context|max(imum)?)/i;

/** Error names that mean the credentials or the signature were refused. */
const AUTH_ERRORS: ReadonlySet<string> = new Set([
  'AccessDeniedException',
  'UnrecognizedClientException',
  'InvalidSignatureException',
  'IncompleteSignatureException',
  'MissingAuthenticationTokenException',
  'ExpiredTokenException',
  'ExpiredToken',
  'InvalidClientTokenId',
  'CredentialsProviderError',
  'TokenProviderError',
]);

/** Every other AWS error Bedrock Runtime names, and what it means to core. */
const KINDS: Readonly<Record<string, ProviderErrorKind>> = {
  ThrottlingException: 'rate-limit',
  ServiceQuotaExceededException: 'rate-limit',
  TooManyRequestsException: 'rate-limit',
  ModelNotReadyException: 'overloaded',
  ServiceUnavailableException: 'overloaded',
  InternalServerException: 'server',
  ModelStreamErrorException: 'server',
  ModelErrorException: 'server',
  ModelTimeoutException: 'network',
  ValidationException: 'bad-request',
  ConflictException: 'bad-request',
  ResourceNotFoundException: 'not-found',
};

/** What an AWS error tells us: its name, HTTP status (none for an in-stream frame) and message. */
export interface BedrockErrorFacts {
  name: string;
  status?: number;
  message: string;
}

/** Classifies one Bedrock error. Pure; the table in the tests is the specification. */
export function classifyBedrockError(facts: BedrockErrorFacts): ProviderErrorKind {
  const { name, status, message } = facts;
  if (AUTH_ERRORS.has(name) || status === 401 || status === 403) return 'auth';
  if ((name === 'ValidationException' || status === 400) && CONTEXT_OVERFLOW_MESSAGE.test(message))
    return 'context-overflow';
  const known = KINDS[name];
  if (known) return known;
  if (status === 429) return 'rate-limit';
  if (status === 404) return 'not-found';
  if (status === 408) return 'network';
  if (status === 503) return 'overloaded';
  if (status !== undefined && status >= 500) return 'server';
  if (status !== undefined && status >= 400) return 'bad-request';
  return 'server';
}

/** Options for `mapBedrockError`. */
export interface MapBedrockErrorOptions {
  /** Secrets (the secret key, the session token) that must never appear in an error message. */
  secrets?: readonly string[];
}

/** Any error thrown by the SDK (or while reading its stream) as a `ProviderError`. */
export function mapBedrockError(error: unknown, options: MapBedrockErrorOptions = {}): ProviderError {
  const api = BEDROCK_API;
  if (error instanceof ProviderError) return error;
  const clean = (message: string): string => truncateMessage(scrub(message, options.secrets ?? []));
  if (error instanceof Error && error.name === 'AbortError')
    return new ProviderError({ api, kind: 'aborted', message: 'The request was cancelled.', cause: error });
  const facts = awsFacts(error);
  if (facts) {
    const kind = classifyBedrockError(facts);
    return new ProviderError({
      api,
      kind,
      message: clean(kind === 'auth' ? authMessage(facts) : facts.message),
      ...(facts.status !== undefined ? { statusCode: facts.status } : {}),
      code: facts.name,
      // Refused credentials stay refused: retrying would only repeat the refusal.
      ...(kind === 'auth' ? { isRetryable: false } : {}),
      cause: error,
    });
  }
  return mapTransportError(error, api, clean, error instanceof SyntaxError);
}

/** The facts of an error the SDK built from an AWS answer; undefined for a transport failure. */
function awsFacts(error: unknown): BedrockErrorFacts | undefined {
  if (!(error instanceof Error)) return undefined;
  const record = error as unknown as Record<string, unknown>;
  const metadata = isRecord(record.$metadata) ? record.$metadata : undefined;
  const status = typeof metadata?.httpStatusCode === 'number' ? metadata.httpStatusCode : undefined;
  // The SDK puts `$metadata` on transport failures too (ECONNREFUSED); only an AWS answer has a fault.
  const fromAws = record.$fault !== undefined || status !== undefined;
  if (!fromAws && !AUTH_ERRORS.has(error.name)) return undefined;
  return {
    name: error.name,
    ...(status !== undefined ? { status } : {}),
    message: error.message !== '' ? error.message : error.name,
  };
}

/** A refused credential, said as what to do: where Cody looked. */
function authMessage(facts: BedrockErrorFacts): string {
  const hint =
    facts.name === 'CredentialsProviderError'
      ? 'set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN), or AWS_PROFILE for a profile in ~/.aws'
      : 'check the AWS credentials, their region and the model access granted to them';
  return `Bedrock refused the credentials (${facts.name}: ${facts.message}); ${hint}.`;
}

function scrub(message: string, secrets: readonly string[]): string {
  return secrets.reduce(
    (text, secret) => (secret.length >= 8 ? text.split(secret).join('[redacted]') : text),
    message,
  );
}
