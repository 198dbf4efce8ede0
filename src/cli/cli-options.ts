/**
 * The command line's arguments: the options `cody chat` and the REPL share, how their flags become
 * `ChatOptions`, the help texts, and the answer to a mistyped command.
 */
import { type Command, Option } from 'commander';
import type { ChatOptions, OutputFormat } from './commands/chat.js';
// The levels alone: the rest of the protocol (and what shares its chunk) stays out of `cody list`.
import { REASONING_LEVELS, type ReasoningLevel } from '../protocol/reasoning-levels.js';
import { apisHelp } from './provider-help.js';
import { closestMatch } from './suggest.js';

export const OUTPUT_FORMATS: OutputFormat[] = ['text', 'json', 'stream-json'];

export interface ChatFlags {
  conversation?: string;
  continue?: boolean;
  ephemeral?: boolean;
  json?: boolean;
  outputFormat?: OutputFormat;
  autoApprove?: boolean;
  approval?: string;
  dangerouslySkipConfinement?: boolean;
  reasoning?: ReasoningLevel;
  provider?: string;
  api?: string;
  model?: string;
  resume?: string | true;
  image?: string[];
  plain?: boolean;
}

/** `--image <file>`, repeatable: each occurrence adds one. */
export function collectImage(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** `--reasoning off|minimal|low|medium|high`, on `cody chat` and the REPL alike. */
export function reasoningOption(): Option {
  return new Option(
    '--reasoning <level>',
    "how hard reasoning models think, for this conversation (config: reasoning; default: the API's own)",
  ).choices(REASONING_LEVELS);
}

export function chatOptions(flags: ChatFlags): Omit<ChatOptions, 'words'> {
  const format: OutputFormat = flags.outputFormat ?? (flags.json ? 'json' : 'text');
  return {
    format,
    ...(flags.conversation !== undefined ? { conversation: flags.conversation } : {}),
    ...(flags.continue ? { continueLast: true } : {}),
    ...(flags.ephemeral ? { ephemeral: true } : {}),
    ...(flags.autoApprove ? { autoApprove: true } : {}),
    ...(flags.approval !== undefined ? { approval: flags.approval } : {}),
    ...(flags.dangerouslySkipConfinement ? { dangerouslySkipConfinement: true } : {}),
    ...(flags.reasoning !== undefined ? { reasoning: flags.reasoning } : {}),
    ...(flags.provider !== undefined ? { provider: flags.provider } : {}),
    ...(flags.api !== undefined ? { api: flags.api } : {}),
    ...(flags.model !== undefined ? { model: flags.model } : {}),
    ...(flags.image !== undefined && flags.image.length > 0 ? { images: flags.image } : {}),
    ...(flags.plain ? { plain: true } : {}),
  };
}

/** The one explicit way past confinement, wherever `--approval` is accepted. */
export const SKIP_CONFINEMENT_HELP =
  'without a sandbox, full-auto also runs unasked what Cody cannot show stays in the workspace (interpreters, build tools, unknown programs): they can change anything you can (config: dangerouslySkipConfinement)';

/** `--provider`, `--api`, `--model` for the one conversation a command works on. */
export function addChoiceOptions(command: Command): Command {
  return command
    .option('--provider <provider>', 'provider for this conversation (config.json keeps its own)')
    .option('--api <api>', `wire API for this conversation: ${apisHelp()}`)
    .option('--model <model>', 'model id for this conversation');
}

export const SERVE_HELP_AFTER = `
The bearer token is created on the first run and kept in $CODY_HOME/serve-token (~/.cody/serve-token;
mode 0600); the first run also prints it once. For example:
  TOKEN=$(cat "\${CODY_HOME:-$HOME/.cody}/serve-token")
  curl -s -H "Authorization: Bearer $TOKEN" -X POST localhost:8080/conversations -d '{}'
  curl -s -N -H "Authorization: Bearer $TOKEN" -X POST localhost:8080/conversations/ID/messages -d '{"text":"hello"}'
The web page is at / on the same address: open the one-time sign-in link it prints (or run cody web).
`;

export const HELP_AFTER = `
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
export function resumeOption(resume: string | true | undefined): { resume?: true; conversation?: string } {
  if (resume === undefined) return {};
  return resume === true ? { resume: true } : { conversation: resume };
}

export function commandNames(program: Command): string[] {
  return program.commands.filter((command) => command.name() !== 'repl').map((command) => command.name());
}

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
