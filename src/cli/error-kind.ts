/** Error kinds as the scripting contract names them, from a thrown error. */
import { CodyError, type ErrorKind } from '../core/index.js';
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
  // Core's errors carry their kind (also when they crossed a process boundary as plain data).
  if (typeof error === 'object' && error !== null && isKind((error as { kind?: unknown }).kind)) {
    return (error as { kind: CliErrorKind }).kind;
  }
  return error instanceof CodyError ? error.kind : 'internal';
}
