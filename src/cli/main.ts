/**
 * Command-line entry: a thin Commander layer over plain `runX(options, context)` functions. Command
 * modules are imported only when their command runs, so `cody --version` and `cody list` stay fast.
 */
import { Argument, Command, CommanderError, Option } from 'commander';
import { UsageError } from '../core/errors.js';
import { ExitCode, type ExitCodeValue } from './exit-codes.js';
import type { ChatOptions, OutputFormat } from './commands/chat.js';
// The levels alone: the rest of the protocol (and what shares its chunk) stays out of `cody list`.
import { REASONING_LEVELS, type ReasoningLevel } from '../protocol/reasoning-levels.js';
import { processIo, type Io } from './io.js';
import { reportError } from './report-error.js';
import { apisHelp, loginProvidersHelp, providersHelp, signInsHelp } from './provider-help.js';
import { closestMatch } from './suggest.js';
import { CLI_VERSION } from './version.js';

type Action = (io: Io) => Promise<ExitCodeValue | number>;

const OUTPUT_FORMATS: OutputFormat[] = ['text', 'json', 'stream-json'];

interface ChatFlags {
  conversation?: string;
  continue?: boolean;
  ephemeral?: boolean;
  json?: boolean;
  outputFormat?: OutputFormat;
  autoApprove?: boolean;
  approval?: string;
  reasoning?: ReasoningLevel;
  provider?: string;
  api?: string;
  model?: string;
  resume?: string | true;
  image?: string[];
}

/** `--image <file>`, repeatable: each occurrence adds one. */
function collectImage(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** `--reasoning off|minimal|low|medium|high`, on `cody chat` and the REPL alike. */
function reasoningOption(): Option {
  return new Option(
    '--reasoning <level>',
    "how hard reasoning models think, for this conversation (config: reasoning; default: the API's own)",
  ).choices(REASONING_LEVELS);
}

function chatOptions(flags: ChatFlags): Omit<ChatOptions, 'words'> {
  const format: OutputFormat = flags.outputFormat ?? (flags.json ? 'json' : 'text');
  return {
    format,
    ...(flags.conversation !== undefined ? { conversation: flags.conversation } : {}),
    ...(flags.continue ? { continueLast: true } : {}),
    ...(flags.ephemeral ? { ephemeral: true } : {}),
    ...(flags.autoApprove ? { autoApprove: true } : {}),
    ...(flags.approval !== undefined ? { approval: flags.approval } : {}),
    ...(flags.reasoning !== undefined ? { reasoning: flags.reasoning } : {}),
    ...(flags.provider !== undefined ? { provider: flags.provider } : {}),
    ...(flags.api !== undefined ? { api: flags.api } : {}),
    ...(flags.model !== undefined ? { model: flags.model } : {}),
    ...(flags.image !== undefined && flags.image.length > 0 ? { images: flags.image } : {}),
  };
}

/** `--provider`, `--api`, `--model` for the one conversation a command works on. */
function addChoiceOptions(command: Command): Command {
  return command
    .option('--provider <provider>', 'provider for this conversation (config.json keeps its own)')
    .option('--api <api>', `wire API for this conversation: ${apisHelp()}`)
    .option('--model <model>', 'model id for this conversation');
}

const SERVE_HELP_AFTER = `
The bearer token is created on the first run and kept in $CODY_HOME/serve-token (~/.cody/serve-token;
mode 0600); the first run also prints it once. For example:
  TOKEN=$(cat "\${CODY_HOME:-$HOME/.cody}/serve-token")
  curl -s -H "Authorization: Bearer $TOKEN" -X POST localhost:8080/conversations -d '{}'
  curl -s -N -H "Authorization: Bearer $TOKEN" -X POST localhost:8080/conversations/ID/messages -d '{"text":"hello"}'
The web page is at / on the same address: open the one-time sign-in link it prints (or run cody web).
`;

const HELP_AFTER = `
Interactive use (the REPL):
  cody                      start a new conversation in the terminal
  cody "question"           start a new conversation with that first message
  cody -c, --continue       continue the most recent conversation
  cody --resume [id]        pick a conversation to continue (or open that one)
  cody --approval <policy>  read-only | ask (default) | auto-edit | full-auto, for this run
  cody --model M --provider P --api A   for this conversation only
Inside it, /help lists the slash commands (/model, /provider, /resume, /export, …).
`;

/** `--resume` alone opens the picker; `--resume ID` opens that conversation. */
function resumeOption(resume: string | true | undefined): { resume?: true; conversation?: string } {
  if (resume === undefined) return {};
  return resume === true ? { resume: true } : { conversation: resume };
}

function commandNames(program: Command): string[] {
  return program.commands.filter((command) => command.name() !== 'repl').map((command) => command.name());
}

/** For bin/cody.js: how the process ends on SIGINT/SIGTERM/SIGHUP. */
export { exitCodeAfterSignal, installSignalHandling } from './signals.js';

/**
 * `cody lsit` or `cody chta hi`: a first word that looks like a mistyped command is answered with the
 * command it resembles, not sent as a prompt. A prompt with spaces in one argument is always a prompt.
 */
export function mistypedCommand(words: readonly string[], commands: readonly string[]): string | undefined {
  const first = words[0];
  if (first === undefined || !/^[a-z][a-z-]*$/.test(first)) return undefined;
  if (first === 'version') return `unknown command 'version'. Did you mean 'cody --version'?`;
  if (first === 'help') return `unknown command 'help'. Did you mean 'cody --help'?`;
  const match = closestMatch(first, [...commands, 'help', 'version']);
  if (match === undefined) return undefined;
  const suggestion = match === 'help' || match === 'version' ? `cody --${match}` : `cody ${match}`;
  return `unknown command '${first}'. Did you mean '${suggestion}'? (To send it as a prompt: cody chat "${words.join(' ')}")`;
}

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

  program
    .command('new')
    .description('start a new conversation, make it active and print its id')
    .addOption(new Option('--provider <provider>', providersHelp()))
    .option('--api <api>', `wire API: ${apisHelp()}`)
    .option('--model <model>', 'model id')
    .action((options: { provider?: string; api?: string; model?: string }) =>
      run(async (commandIo) => (await import('./commands/new.js')).runNew(options, commandIo))(),
    );

  const chat = program
    .command('chat')
    .description('send a message (argument or stdin) to the active conversation and stream the reply')
    .argument('[message...]', 'the message; piped stdin is appended to it as a quoted block')
    .option('--conversation <id>', 'conversation id or unique prefix (default: the active one)')
    .option('-c, --continue', 'continue the most recently used conversation')
    .option('--ephemeral', 'run the turn without saving anything (no rollout, no history)')
    .option(
      '--json',
      'print one JSON object at the end: conversation id, reply, usage, tool calls, status, error',
    )
    .addOption(
      new Option(
        '--output-format <format>',
        'text, json (same as --json) or stream-json (JSON lines)',
      ).choices(OUTPUT_FORMATS),
    )
    .option(
      '--approval <policy>',
      'read-only | ask (default) | auto-edit | full-auto: what runs without asking (config: approval)',
    )
    .option('--auto-approve', 'the same as --approval full-auto')
    .option(
      '--image <file>',
      'attach a PNG, JPEG, GIF or WebP image (at most 20 MB); repeat for more',
      collectImage,
    )
    .addOption(reasoningOption());
  addChoiceOptions(chat).action((words: string[], options: ChatFlags) =>
    run(async (commandIo) =>
      (await import('./commands/chat.js')).runChat({ ...chatOptions(options), words }, commandIo),
    )(),
  );

  program
    .command('list')
    .description("list this workspace's conversations, newest activity first (--all: every one)")
    .option('--all', "every conversation, this workspace's first, with each one's workspace")
    .option('--json', 'machine-readable output')
    .option('-n, --limit <n>', 'show at most n conversations')
    .option('-s, --search <text>', 'only conversations whose title, first message or id contains the text')
    .action((options: { all?: boolean; json?: boolean; limit?: string; search?: string }) =>
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
    .argument('<provider>', providersHelp())
    .option('--api <api>', apisHelp())
    .option('--model <model>', 'model id')
    .option('--base-url <url>', "endpoint for this provider (e.g. an OpenAI-compatible server); '' clears it")
    .option('--auth <mode>', signInsHelp())
    .action((provider: string, options: { api?: string; model?: string; baseUrl?: string; auth?: string }) =>
      run(async (commandIo) =>
        (await import('./commands/set-provider.js')).runSetProvider({ ...options, provider }, commandIo),
      )(),
    );

  const auth = program
    .command('auth')
    .description('API keys saved by Cody, and where each credential comes from');
  auth
    .command('login')
    .description('save an API key in $CODY_HOME/auth.json (prompted without echo, or read from stdin)')
    .argument('<provider>', loginProvidersHelp())
    .action((provider: string) =>
      run(async (commandIo) => (await import('./commands/auth.js')).runAuthLogin({ provider }, commandIo))(),
    );
  auth
    .command('logout')
    .description('remove a saved API key')
    .argument('<provider>', loginProvidersHelp())
    .action((provider: string) =>
      run(async (commandIo) => (await import('./commands/auth.js')).runAuthLogout({ provider }, commandIo))(),
    );
  auth
    .command('status')
    .description("each provider's credential: where it comes from, its last 4 characters, whether it works")
    .option('--offline', 'make no request; report "not checked"')
    .action((options: { offline?: boolean }) =>
      run(async (commandIo) => (await import('./commands/auth.js')).runAuthStatus(options, commandIo))(),
    );

  program
    .command('models')
    .description('list the models the selected OpenAI-compatible server offers (GET /v1/models)')
    .action(() =>
      run(async (commandIo) => (await import('./commands/models.js')).runModels({}, commandIo))(),
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
    .argument('[id]', 'conversation id or unique prefix (default: the active one)')
    .option('--conversation <id>', 'the same as the [id] argument')
    .option('--json', 'machine-readable output')
    .action((id: string | undefined, options: { conversation?: string; json?: boolean }) =>
      run(async (commandIo) =>
        (await import('./commands/show.js')).runShow(
          { status: true, id: id ?? options.conversation, ...(options.json ? { json: true } : {}) },
          commandIo,
        ),
      )(),
    );

  program
    .command('compact')
    .description('summarise older history now to free the context window')
    .option('--conversation <id>', 'conversation id or unique prefix (default: the active one)')
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
    .command('fork')
    .description('start a new conversation from the history of another (up to user turn N with --at)')
    .argument('<id>', 'conversation id or unique prefix')
    .option('--at <n>', 'keep the history up to and including user turn n (1 = the first)')
    .action((id: string, options: { at?: string }) =>
      run(async (commandIo) => (await import('./commands/fork.js')).runFork({ ...options, id }, commandIo))(),
    );

  program
    .command('export')
    .description('write a conversation as Markdown, JSON or HTML to stdout')
    .argument('[id]', 'conversation id or unique prefix (default: the active one)')
    .addOption(
      new Option('--format <format>', 'md, json or html').choices(['md', 'json', 'html']).default('md'),
    )
    .option(
      '--redact',
      'replace the keys and sign-in tokens Cody knows, key shapes and the config redact patterns with [REDACTED]',
    )
    .action((id: string | undefined, options: { format: 'md' | 'json' | 'html'; redact?: boolean }) =>
      run(async (commandIo) =>
        (await import('./commands/export.js')).runExport({ ...options, id }, commandIo),
      )(),
    );

  program
    .command('rename')
    .description('give a conversation a title (shown by cody list)')
    .argument('<id>', 'conversation id or unique prefix')
    .argument('<title...>', 'the new title')
    .action((id: string, words: string[]) =>
      run(async (commandIo) =>
        (await import('./commands/rename.js')).runRename({ id, title: words.join(' ') }, commandIo),
      )(),
    );

  program
    .command('completion')
    .description('print a shell completion script: eval "$(cody completion bash)"')
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(['bash', 'zsh', 'fish']))
    .action((shell: 'bash' | 'zsh' | 'fish') =>
      run(async (commandIo) =>
        (await import('./completion.js')).runCompletion(
          { shell, commands: commandNames(program) },
          commandIo,
        ),
      )(),
    );

  program
    .command('undo')
    .description('take back what the last turn(s) that changed files did, keeping files changed since')
    .option('-c, --conversation <id>', 'conversation id or unique prefix (default: the active one)')
    .option('--turns <n>', 'how many turns that changed files to undo', '1')
    .option('--force', 'restore files changed since the turn too (asks first)')
    .option('-y, --yes', 'with --force: do not ask (needed when stdin is not a terminal)')
    .action((options: { conversation?: string; turns?: string; force?: boolean; yes?: boolean }) =>
      run(async (commandIo) => (await import('./commands/undo.js')).runUndo(options, commandIo))(),
    );

  program
    .command('diff')
    .description('show what a turn changed, as a unified diff (default: the last turn that changed files)')
    .option('-c, --conversation <id>', 'conversation id or unique prefix (default: the active one)')
    .option('--turn <n>', 'the turn number (1 = the first turn of the conversation)')
    .option('--json', 'the changed files, with added and removed line counts, as JSON')
    .action((options: { conversation?: string; turn?: string; json?: boolean }) =>
      run(async (commandIo) => (await import('./commands/diff.js')).runDiff(options, commandIo))(),
    );

  const mcp = program.command('mcp').description('MCP servers configured in config.json (mcpServers)');
  mcp
    .command('list')
    .description('start each MCP server and show its state and tools')
    .option('--json', 'machine-readable output')
    .action((options: { json?: boolean }) =>
      run(async (commandIo) => (await import('./commands/mcp.js')).runMcpList(options, commandIo))(),
    );

  program
    .command('serve')
    .description('serve conversations over HTTP (REST + server-sent events) on loopback, with a bearer token')
    .option('--host <host>', 'address to listen on (non-loopback needs --allow-remote)', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0: any free port)', '8080')
    .option('--allow-remote', 'allow a non-loopback --host')
    .option('--cors-origin <origin>', 'allow browser requests from this one origin')
    .addHelpText('after', SERVE_HELP_AFTER)
    .action((options: { host?: string; port?: string; allowRemote?: boolean; corsOrigin?: string }) =>
      run(async (commandIo) => (await import('./commands/serve.js')).runServe(options, commandIo))(),
    );

  program
    .command('web')
    .description('serve conversations over HTTP and open the web page in your browser')
    .option('--host <host>', 'address to listen on (non-loopback needs --allow-remote)', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0: any free port)', '8080')
    .option('--allow-remote', 'allow a non-loopback --host')
    .action((options: { host?: string; port?: string; allowRemote?: boolean }) =>
      run(async (commandIo) =>
        (await import('./commands/serve.js')).runServe(options, commandIo, { openBrowser: true }),
      )(),
    );

  const repl = program
    .command('repl', { isDefault: true, hidden: true })
    .description('interactive chat in the terminal (the default when no command is given)')
    .argument('[prompt...]', 'a first message to send (cody "question")')
    .option('--conversation <id>', 'conversation id or unique prefix (default: a new conversation)')
    .option('-c, --continue', 'continue the most recently used conversation')
    .option('--resume [id]', 'pick a conversation to continue, or continue that one')
    .option('--ephemeral', 'save nothing from this session')
    .option('--json', 'with a prompt and no terminal: one JSON object at the end')
    .addOption(new Option('--output-format <format>', 'text, json or stream-json').choices(OUTPUT_FORMATS))
    .option('--approval <policy>', 'read-only | ask (default) | auto-edit | full-auto')
    .option('--auto-approve', 'the same as --approval full-auto')
    .addOption(reasoningOption());
  addChoiceOptions(repl).action((words: string[], options: ChatFlags) =>
    run(async (commandIo) => {
      const typo = mistypedCommand(words, commandNames(program));
      if (typo) throw new UsageError(typo);
      const chat = { ...chatOptions(options), words, fresh: true, ...resumeOption(options.resume) };
      if (commandIo.stdin.isTTY !== true && words.length > 0) {
        return (await import('./commands/chat.js')).runChat(chat, commandIo);
      }
      return (await import('./repl.js')).runRepl(chat, commandIo);
    })(),
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
