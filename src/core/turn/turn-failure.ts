/** How a turn that cannot complete is reported: one error with a kind, and one line of text. */
import { CONNECTION_REFUSED, type ProviderError } from '../../protocol/index.js';
import { credentialHint, SIGN_IN_FAILED_CODE, SIGN_IN_REFUSED_CODE } from '../../providers/index.js';
import { providerOfApi } from '../config/index.js';
import { CodyError, type CodyErrorOptions, type ErrorHint, type ErrorKind } from '../errors.js';

/** A turn that could not complete. Its user message stays recorded; a `turn_aborted` event says why. */
export class TurnFailedError extends CodyError {
  readonly providerError: ProviderError | undefined;
  constructor(
    message: string,
    kind: ErrorKind,
    providerError?: ProviderError,
    hint?: ErrorHint,
    hintOptions: Pick<CodyErrorOptions, 'hintSubject'> = {},
  ) {
    super(message, kind, {
      ...(providerError ? { cause: providerError } : {}),
      ...(hint ? { hint, ...hintOptions } : {}),
    });
    this.providerError = providerError;
  }
}

/** The server a request went to: the provider's name and the address the client called. */
export interface ServerAddress {
  server: string;
  address: string | undefined;
}

/**
 * Nothing listens at the provider's address (a local server such as Ollama not started): named with the
 * server and its address, not as a failed request of the wire API. Kind 'provider', as any failure there.
 */
export class ServerUnreachableError extends TurnFailedError {
  readonly server: string;
  readonly address: string;
  constructor(server: string, address: string, error: ProviderError) {
    super(`cannot reach ${server} at ${address} (connection refused): is it running?`, 'provider', error);
    this.server = server;
    this.address = address;
  }
}

/**
 * The error for a provider failure that retries did not fix: kind 'auth' or 'provider'; a refused
 * connection names `server` and its address.
 */
export function failureFromProvider(
  error: ProviderError,
  retries: number,
  what?: string,
  server?: ServerAddress,
): TurnFailedError {
  if (error.code === CONNECTION_REFUSED && server?.address !== undefined)
    return new ServerUnreachableError(server.server, originOf(server.address), error);
  // A sign-in token the provider will not take: the way out is a key (the front end says how).
  if (error.code === SIGN_IN_REFUSED_CODE) {
    return new TurnFailedError(describeProviderFailure(error, retries, what), 'auth', error, 'use-api-key', {
      hintSubject: providerOfApi(error.api),
    });
  }
  return new TurnFailedError(
    describeProviderFailure(error, retries, what),
    error.kind === 'auth' ? 'auth' : 'provider',
    error,
    error.kind === 'not-found' ? 'choose-model' : undefined,
  );
}

/** One line naming the API, the HTTP status, the retries made and what to check. */
export function describeProviderFailure(error: ProviderError, retries: number, what?: string): string {
  const status = error.statusCode !== undefined ? ` (HTTP ${error.statusCode})` : '';
  const after = retries > 0 ? ` after ${retries} ${retries === 1 ? 'retry' : 'retries'}` : '';
  const hint =
    error.kind === 'auth' && error.code !== SIGN_IN_FAILED_CODE && error.code !== SIGN_IN_REFUSED_CODE
      ? ` — check ${credentialHint(error.api)}`
      : error.kind === 'not-found'
        ? ' — check the model name and the base URL'
        : '';
  const subject = what ?? `${error.api} request failed`;
  return `${subject}${what ? ` (${error.api})` : ''}${status}${after}: ${firstLine(error.message)}${hint}`;
}

/** `http://localhost:11434/v1` → `http://localhost:11434`: where the server listens. */
function originOf(address: string): string {
  try {
    return new URL(address).origin;
  } catch {
    return address;
  }
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? text;
}
