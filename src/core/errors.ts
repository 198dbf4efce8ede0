/**
 * User-facing errors. Core classifies each failure by `kind`; front ends map kinds to their own
 * signals (the CLI to the exit codes documented in the README, the server to HTTP statuses). The CLI
 * prints `message` as one line (no stack unless --debug).
 */

/** What went wrong, as front ends need to know it. */
export type ErrorKind =
  /** Bad input: an invalid option, setting or argument. */
  | 'usage'
  /** No conversation (or file) with that id. */
  | 'not-found'
  /** A conversation id prefix matches several conversations. */
  | 'ambiguous'
  /** Missing or rejected credentials. */
  | 'auth'
  /** The provider answered with an error, or the network failed, after retries. */
  | 'provider'
  /** A rollout (or imported file) is not what it should be. */
  | 'corrupt'
  /** Another process held the conversation's lock past the timeout. */
  | 'locked'
  /** Cody's home or a rollout could not be read or written. */
  | 'storage'
  /** A turn is already running on that conversation in this process. */
  | 'busy'
  /** Stopped by the caller (Ctrl-C, an abort signal, `abort()`). */
  | 'interrupted'
  /** A turn could not complete for another reason (e.g. a loop limit). */
  | 'failure'
  /** A bug. */
  | 'internal';

/**
 * What a front end could suggest next, in its own words (the CLI names its commands; core never does).
 * - list-conversations: see which conversations exist
 * - compact: compact the conversation by hand
 * - choose-model: pick another model (or fix the base URL)
 */
export type ErrorHint =
  | 'list-conversations'
  | 'compact'
  | 'choose-model'
  /** keep a key for `hintSubject` (a provider) in Cody's own store */
  | 'store-key'
  /** sign in to `hintSubject` (a provider) with an API key instead of a subscription login */
  | 'use-api-key'
  /** store keys again after fixing or deleting the key store */
  | 'store-keys-again'
  /** choose `hintSubject` (a provider), with `hintModel` when one was given */
  | 'choose-provider';

export interface CodyErrorOptions {
  cause?: unknown;
  hint?: ErrorHint;
  /** What the hint is about (a provider name), for the front end's wording. */
  hintSubject?: string;
  /** A model the hint should keep. */
  hintModel?: string;
}

export class CodyError extends Error {
  readonly kind: ErrorKind;
  readonly hint: ErrorHint | undefined;
  readonly hintSubject: string | undefined;
  readonly hintModel: string | undefined;
  constructor(message: string, kind: ErrorKind, options?: CodyErrorOptions) {
    super(message, options?.cause !== undefined ? { cause: options.cause } : undefined);
    this.name = new.target.name;
    this.hint = options?.hint;
    this.hintSubject = options?.hintSubject;
    this.hintModel = options?.hintModel;
    this.kind = kind;
  }
}

export class UsageError extends CodyError {
  constructor(message: string, options?: Omit<CodyErrorOptions, 'cause'>) {
    super(message, 'usage', options);
  }
}

export class UnknownConversationError extends CodyError {
  readonly conversationId: string;
  constructor(conversationId: string) {
    super(`Conversation '${conversationId}' not found.`, 'not-found', { hint: 'list-conversations' });
    this.conversationId = conversationId;
  }
}

export class AmbiguousConversationError extends CodyError {
  constructor(prefix: string, matches: string[]) {
    const shown = matches.slice(0, 5).join(', ');
    super(
      `Conversation prefix '${prefix}' is ambiguous: it matches ${matches.length} conversations (${shown}${
        matches.length > 5 ? ', …' : ''
      }). Type more of the id.`,
      'ambiguous',
    );
  }
}

export class InvalidConversationIdError extends CodyError {
  constructor(id: string) {
    super(
      `'${id}' is not a valid conversation id: use a conversation's id or a unique prefix of it.`,
      'usage',
      { hint: 'list-conversations' },
    );
  }
}

export class CorruptRolloutError extends CodyError {
  readonly file: string;
  readonly line: number;
  constructor(file: string, line: number, reason: string) {
    super(`Corrupt rollout ${file}:${line}: ${reason}`, 'corrupt');
    this.file = file;
    this.line = line;
  }
}

export class EmptyConversationError extends CodyError {
  constructor(id: string) {
    super(`Conversation ${id} has no turns.`, 'corrupt');
  }
}

export class LockTimeoutError extends CodyError {
  constructor(id: string, waitedMs: number) {
    super(
      `Conversation ${id} is busy: another cody process is writing to it (waited ${Math.round(
        waitedMs / 1000,
      )} s). Try again when it has finished.`,
      'locked',
    );
  }
}

export class StorageError extends CodyError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, 'storage', options);
  }
}

/** A rollout line could not be written; the recorder cut off whatever part of it reached the file. */
export class RolloutWriteError extends StorageError {
  readonly file: string;
  constructor(file: string, reason: string, options?: { cause?: unknown }) {
    super(`The conversation could not be saved to ${file}: ${reason}`, options);
    this.file = file;
  }
}

export function isErrno(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The user's message could not be saved, so nothing was sent; its text comes back so it is not lost. */
export class UnsentMessageError extends StorageError {
  readonly unsentText: string;
  constructor(cause: StorageError, text: string) {
    super(`${cause.message.replace(/\.?$/, '.')} Nothing was sent.`, { cause });
    this.unsentText = text;
  }
}
