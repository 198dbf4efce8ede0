/**
 * The command table: one declaration per command, in groups, each a thin Commander layer over a plain
 * `runX(options, io)` function. Command modules are imported only when their command runs, so
 * `cody --version` and `cody list` stay fast.
 */
import { type Command, Option } from 'commander';
import { UsageError } from '../core/index.js';
import type { ExitCodeValue } from './exit-codes.js';
import type { Io } from './io.js';
import { apisHelp, providersHelp } from './provider-help.js';
import {
  mcpServerCommand,
  providerCommands,
  serverCommands,
  workspaceCommands,
} from './command-table-tools.js';
import {
  addChoiceOptions,
  type ChatFlags,
  chatOptions,
  collectImage,
  commandNames,
  mistypedCommand,
  OUTPUT_FORMATS,
  reasoningOption,
  resumeOption,
  SKIP_CONFINEMENT_HELP,
} from './cli-options.js';

/** What a command does, given the process's streams: its exit code. */
export type Action = (io: Io) => Promise<ExitCodeValue | number>;
/** Runs an action and keeps its exit code (the caller's `run`). */
export type Run = (action: Action) => () => Promise<void>;

/** Declares every command on `program`. */
export function addCommands(program: Command, run: Run): void {
  conversationCommands(program, run);
  providerCommands(program, run);
  readingCommands(program, run);
  storeCommands(program, run);
  workspaceCommands(program, run);
  serverCommands(program, run);
  mcpServerCommand(program, run);
  replCommand(program, run);
}

/** `new`, `chat`, `list`, `resume`: starting and continuing conversations. */
function conversationCommands(program: Command, run: Run): void {
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
      '--plain',
      'plain text on a terminal too: no Markdown, nothing redrawn, approval questions read a line',
    )
    .option(
      '--approval <policy>',
      'read-only | ask (default) | auto-edit | full-auto: what runs without asking (config: approval)',
    )
    .option('--auto-approve', 'the same as --approval full-auto')
    .option('--dangerously-skip-confinement', SKIP_CONFINEMENT_HELP)
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
}

/** `show`, `status`, `compact`: reading (and compacting) a conversation. */
function readingCommands(program: Command, run: Run): void {
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
}

/** `delete`, `import`, `fork`, `export`, `rename`: the conversations on disk and out of it. */
function storeCommands(program: Command, run: Run): void {
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
}

/** The default command: the REPL (or one turn, when stdin is not a terminal). */
function replCommand(program: Command, run: Run): void {
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
    .option('--dangerously-skip-confinement', SKIP_CONFINEMENT_HELP)
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
}
