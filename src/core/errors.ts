/**
 * User-facing errors. Each carries the exit code the CLI returns; the CLI prints `message` as one line
 * (no stack unless --debug). Exit codes are documented in the README.
 */
export const ExitCode = {
  ok: 0,
  /** A turn failed for a reason not covered below (e.g. the stream ended with an error). */
  failure: 1,
  /** Bad command-line usage or an invalid option value. */
  usage: 2,
  /** Unknown conversation id, or a prefix that matches several. */
  unknownConversation: 3,
  /** Missing or rejected API key. */
  auth: 4,
  /** The provider answered with an HTTP error or the network failed (after retries). */
  provider: 5,
  /** A rollout file has a corrupt line. */
  corruptRollout: 6,
  /** Another cody process held the conversation lock past the timeout. */
  lockTimeout: 7,
  /** CODY_HOME or a rollout could not be read or written. */
  storage: 8,
  /** Interrupted by the user (SIGINT). */
  interrupted: 130,
  /** A bug: an unexpected error. */
  internal: 70,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

export class CodyError extends Error {
  readonly exitCode: ExitCodeValue;
  constructor(message: string, exitCode: ExitCodeValue, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.exitCode = exitCode;
  }
}

export class UsageError extends CodyError {
  constructor(message: string) {
    super(message, ExitCode.usage);
  }
}

export class UnknownConversationError extends CodyError {
  readonly conversationId: string;
  constructor(conversationId: string) {
    super(
      `Conversation '${conversationId}' not found. List available: cody list`,
      ExitCode.unknownConversation,
    );
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
      ExitCode.unknownConversation,
    );
  }
}

export class InvalidConversationIdError extends CodyError {
  constructor(id: string) {
    super(
      `'${id}' is not a valid conversation id: use the id (or a prefix of it) shown by 'cody list'.`,
      ExitCode.usage,
    );
  }
}

export class CorruptRolloutError extends CodyError {
  readonly file: string;
  readonly line: number;
  constructor(file: string, line: number, reason: string) {
    super(`Corrupt rollout ${file}:${line}: ${reason}`, ExitCode.corruptRollout);
    this.file = file;
    this.line = line;
  }
}

export class EmptyConversationError extends CodyError {
  constructor(id: string) {
    super(`Conversation ${id} has no turns.`, ExitCode.corruptRollout);
  }
}

export class LockTimeoutError extends CodyError {
  constructor(id: string, waitedMs: number) {
    super(
      `Conversation ${id} is busy: another cody process is writing to it (waited ${Math.round(
        waitedMs / 1000,
      )} s). Try again when it has finished.`,
      ExitCode.lockTimeout,
    );
  }
}

export class StorageError extends CodyError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, ExitCode.storage, options);
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
