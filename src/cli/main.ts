/**
 * Command-line entry: a thin Commander layer over plain `runX(options, context)` functions. Command
 * modules are imported only when their command runs, so `cody --version` and `cody list` stay fast.
 */
import { Command, CommanderError, Option } from 'commander';
import { ExitCode, type ExitCodeValue } from '../core/errors.js';
import { processIo, type Io } from './io.js';
import { reportError } from './report-error.js';
import { CLI_VERSION } from './version.js';

type Action = (io: Io) => Promise<ExitCodeValue | number>;

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
    .showHelpAfterError('(run cody --help for usage)');

  program
    .command('new')
    .description('start a new conversation, make it active and print its id')
    .addOption(new Option('--provider <provider>', 'openai, anthropic or google'))
    .option('--api <api>', 'wire API: responses|chat (openai), messages (anthropic), gemini (google)')
    .option('--model <model>', 'model id')
    .action((options: { provider?: string; api?: string; model?: string }) =>
      run(async (commandIo) => (await import('./commands/new.js')).runNew(options, commandIo))(),
    );

  program
    .command('chat')
    .description('send a message (argument or stdin) to the active conversation and stream the reply')
    .argument('[message...]', 'the message; read from stdin when omitted and stdin is not a terminal')
    .option('-c, --conversation <id>', 'conversation id or unique prefix (default: the active one)')
    .option('--json', 'print events as JSON lines on stdout instead of the reply text')
    .option('--auto-approve', 'run shell commands and file edits the model asks for without asking')
    .action((words: string[], options: { conversation?: string; json?: boolean; autoApprove?: boolean }) =>
      run(async (commandIo) =>
        (await import('./commands/chat.js')).runChat({ ...options, words }, commandIo),
      )(),
    );

  program
    .command('list')
    .description('list saved conversations, newest activity first')
    .option('--json', 'machine-readable output')
    .option('-n, --limit <n>', 'show at most n conversations')
    .action((options: { json?: boolean; limit?: string }) =>
      run(async (commandIo) => (await import('./commands/list.js')).runList(options, commandIo))(),
    );

  program
    .command('resume')
    .description('make a conversation the active one')
    .argument('<id>', 'conversation id or unique prefix')
    .action((id: string) =>
      run(async (commandIo) => (await import('./commands/resume.js')).runResume({ id }, commandIo))(),
    );

  program
    .command('set-provider')
    .description('choose the provider, API and model for the next turns')
    .argument('<provider>', 'openai, anthropic or google')
    .option('--api <api>', 'responses|chat (openai), messages (anthropic), gemini (google)')
    .option('--model <model>', 'model id')
    .option('--base-url <url>', "endpoint for this provider (e.g. an OpenAI-compatible server); '' clears it")
    .action((provider: string, options: { api?: string; model?: string; baseUrl?: string }) =>
      run(async (commandIo) =>
        (await import('./commands/set-provider.js')).runSetProvider({ ...options, provider }, commandIo),
      )(),
    );

  program
    .command('show')
    .description('print a conversation (default: the active one)')
    .argument('[id]', 'conversation id or unique prefix')
    .option('--summary', 'print the latest compaction summary')
    .option('--status', 'print token usage and compaction status')
    .option('--json', 'machine-readable output')
    .action((id: string | undefined, options: { summary?: boolean; status?: boolean; json?: boolean }) =>
      run(async (commandIo) => (await import('./commands/show.js')).runShow({ ...options, id }, commandIo))(),
    );

  program
    .command('status')
    .description('provider, model, context window, tokens used and compactions of a conversation')
    .option('-c, --conversation <id>', 'conversation id or unique prefix (default: the active one)')
    .option('--json', 'machine-readable output')
    .action((options: { conversation?: string; json?: boolean }) =>
      run(async (commandIo) =>
        (await import('./commands/show.js')).runShow(
          { status: true, id: options.conversation, ...(options.json ? { json: true } : {}) },
          commandIo,
        ),
      )(),
    );

  program
    .command('compact')
    .description('summarise older history now to free the context window')
    .option('-c, --conversation <id>', 'conversation id or unique prefix (default: the active one)')
    .option('--focus <text>', 'what the summary must keep')
    .option('--json', 'print events as JSON lines')
    .action((options: { conversation?: string; focus?: string; json?: boolean }) =>
      run(async (commandIo) => (await import('./commands/compact.js')).runCompact(options, commandIo))(),
    );

  program
    .command('delete')
    .description('delete a conversation')
    .argument('<id>', 'conversation id or unique prefix')
    .option('-y, --yes', 'do not ask for confirmation (needed when stdin is not a terminal)')
    .action((id: string, options: { yes?: boolean }) =>
      run(async (commandIo) =>
        (await import('./commands/delete.js')).runDelete({ ...options, id }, commandIo),
      )(),
    );

  program
    .command('import')
    .description('import a Codex CLI rollout file as a new conversation and print its id')
    .argument('<path>', 'a rollout-*.jsonl file written by Codex')
    .action((path: string) =>
      run(async (commandIo) => (await import('./commands/import.js')).runImport({ path }, commandIo))(),
    );

  program
    .command('repl', { isDefault: true })
    .description('interactive chat in the terminal (the default when no command is given)')
    .option('-c, --conversation <id>', 'conversation id or unique prefix (default: the active one)')
    .action((options: { conversation?: string }) =>
      run(async (commandIo) => (await import('./repl.js')).runRepl(options, commandIo))(),
    );

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
