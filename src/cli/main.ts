/**
 * Command-line entry: the program (its name, version and global options), the command table
 * (`command-table.ts`) and how the process ends: every action's exit code, a Commander error as a usage
 * error, anything unexpected as one line (`report-error.ts`); bin/cody.js installs the signal handling.
 */
import { Command, CommanderError } from 'commander';
import { ExitCode } from './exit-codes.js';
import { HELP_AFTER } from './cli-options.js';
import { type Action, addCommands } from './command-table.js';
import { processIo, type Io } from './io.js';
import { reportError } from './report-error.js';
import { CLI_VERSION } from './version.js';

/** For bin/cody.js: how the process ends on SIGINT/SIGTERM/SIGHUP. */
export { exitCodeAfterSignal, installSignalHandling } from './signals.js';
export { mistypedCommand } from './cli-options.js';

export async function main(argv: readonly string[], io: Io = processIo()): Promise<number> {
  let exitCode: number = ExitCode.ok;
  const debug = argv.includes('--debug');
  const run = (action: Action) => async (): Promise<void> => {
    try {
      exitCode = await action(io);
    } catch (error) {
      exitCode = reportError(error, io, debug);
    }
  };

  const program = new Command('cody')
    .description('A terminal chat agent whose conversations are never lost and never overflow.')
    .version(CLI_VERSION, '-V, --version')
    .option('--debug', 'print stack traces for unexpected errors')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .showHelpAfterError('(run cody --help for usage)')
    .addHelpText('after', HELP_AFTER);

  addCommands(program, run);

  try {
    await program.parseAsync([...argv]);
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and --version exit 0; every other Commander error is a usage error.
      return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    }
    return reportError(error, io, debug);
  }
  return exitCode;
}
