/** Error kinds as the scripting contract names them, from a thrown error. */
import { CodyError, ExitCode, type ErrorKind } from '../core/errors.js';
import { MissingApiKeyError, ProviderError } from '../protocol/errors.js';

/** The scripting contract uses core's error kinds as they are. */
export type CliErrorKind = ErrorKind;

const KINDS: readonly string[] = [
  // Every ErrorKind, for checking a value that crossed a process boundary.
  'usage',
  'not-found',
  'ambiguous',
  'auth',
  'provider',
  'corrupt',
  'locked',
  'storage',
  'busy',
  'interrupted',
  'failure',
  'internal',
];

function isKind(value: unknown): value is CliErrorKind {
  return typeof value === 'string' && KINDS.includes(value);
}

export function errorKindOf(error: unknown): CliErrorKind {
  if (error instanceof MissingApiKeyError) return 'auth';
  if (error instanceof ProviderError) return error.kind === 'auth' ? 'auth' : 'provider';
  // The engine's CodyError carries its kind; older errors are classified by their exit code.
  if (typeof error === 'object' && error !== null && isKind((error as { kind?: unknown }).kind)) {
    return (error as { kind: CliErrorKind }).kind;
  }
  if (!(error instanceof CodyError)) return 'internal';
  switch (error.exitCode) {
    case ExitCode.usage:
      return 'usage';
    case ExitCode.unknownConversation:
      return error.name === 'AmbiguousConversationError' ? 'ambiguous' : 'not-found';
    case ExitCode.auth:
      return 'auth';
    case ExitCode.provider:
      return 'provider';
    case ExitCode.corruptRollout:
      return 'corrupt';
    case ExitCode.lockTimeout:
      return 'locked';
    case ExitCode.storage:
      return 'storage';
    case ExitCode.interrupted:
      return 'interrupted';
    case ExitCode.failure:
      return 'failure';
    default:
      return 'internal';
  }
}
