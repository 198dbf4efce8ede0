import { MissingApiKeyError, ProviderError } from '../protocol/errors.js';
import { CodyError } from '../core/index.js';
import { ExitCode, exitCodeFor, type ExitCodeValue, hintText } from './exit-codes.js';
import type { Io } from './io.js';
import { layoutBlock } from './layout/layout.js';
import { sanitizeForTerminal } from './sanitize.js';

/**
 * Turns any error into one line on stderr and an exit code. User errors never show a stack; unexpected
 * ones show it only with --debug.
 */
export function reportError(error: unknown, io: Io, debug: boolean): ExitCodeValue {
  const { message, exitCode, expected } = describeError(error);
  // Error texts carry provider bodies, file names and rollout contents: shown, never obeyed.
  const line = `cody: ${sanitizeForTerminal(message)}`;
  // On a terminal, laid out on words (continuation rows indented); a pipe or a file gets one line.
  const columns = io.stderr.isTTY === true || io.stderr.columns !== undefined ? io.stderr.columns : undefined;
  io.stderr.write(`${columns !== undefined ? layoutBlock(line, columns, '  ') : line}\n`);
  if (debug && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
  else if (!expected) io.stderr.write('Run again with --debug for details.\n');
  return exitCode;
}

/**
 * What an error says to a person (one line, before sanitising), the exit code it ends a command with, and
 * whether it was expected (a user error: no "--debug" hint). The turn views word a failed turn with it.
 */
export function describeError(error: unknown): {
  message: string;
  exitCode: ExitCodeValue;
  expected: boolean;
} {
  if (error instanceof CodyError) {
    const hint = hintText(error.hint, error.hintSubject, error.hintModel);
    return {
      message: hint ? `${error.message} ${hint}` : error.message,
      exitCode: exitCodeFor(error.kind),
      expected: true,
    };
  }
  if (error instanceof MissingApiKeyError)
    return { message: error.message, exitCode: ExitCode.auth, expected: true };
  if (error instanceof ProviderError) {
    const status = error.statusCode !== undefined ? ` (HTTP ${error.statusCode})` : '';
    return {
      message: `${error.api} request failed${status}: ${error.message}`,
      exitCode: error.kind === 'auth' ? ExitCode.auth : ExitCode.provider,
      expected: true,
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { message: `unexpected error: ${message}`, exitCode: ExitCode.internal, expected: false };
}
