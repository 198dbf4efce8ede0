/** How a turn that cannot complete is reported: one error with a kind, and one line of text. */
import type { ProviderError } from '../../protocol/index.js';
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

/** The error for a provider failure that retries did not fix: kind 'auth' or 'provider'. */
export function failureFromProvider(error: ProviderError, retries: number, what?: string): TurnFailedError {
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

function firstLine(text: string): string {
  return text.split('\n')[0] ?? text;
}
