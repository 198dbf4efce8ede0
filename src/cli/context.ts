/**
 * What every command needs: the engine (`createCody`) and, from it, the paths and the config; every
 * conversation is reached through the engine's API (`Cody`), as every other front end reaches it. The CLI builds no session or tool runtime of its own: it passes
 * createCody only what is the terminal's (whether it can ask, where notices go, its approval flags).
 */
import { ensureCodyHome, type CodyPaths } from '../core/index.js';
import { resolveSelection, type CodyConfig } from '../core/index.js';
import { createCody, type Cody, type CreateCodyOptions, type SelectionChoice } from '../core/index.js';
import type { Io } from './io.js';
import { sanitizeForTerminal } from './sanitize.js';
import { CLI_VERSION } from './version.js';

/**
 * What a command adds to the engine's options: its approval policy, whether it can ask, lock waits, and
 * `tools: false` where no turn runs (`show --status` and `compact` count the history without tools).
 */
export type EngineOptions = Pick<
  CreateCodyOptions,
  'approvalPolicy' | 'unconfined' | 'canAsk' | 'onLockWait' | 'tools'
>;

export interface CommandContext {
  io: Io;
  cody: Cody;
  /** Where the engine's files are, and the config.json it read (once): `cody.settings()`. */
  paths: CodyPaths;
  config: CodyConfig;
  /** Closes the engine's live conversations (their tools, MCP servers); an ephemeral one removes its scratch directory. */
  dispose: () => Promise<void>;
}

/**
 * `create: false` for commands that only read (list, show, status, export): they never create
 * CODY_HOME, so `cody list` on a fresh machine leaves no trace.
 */
export async function createContext(
  io: Io,
  options: { create?: boolean; engine?: EngineOptions } = {},
): Promise<CommandContext> {
  const context = await contextOf(io, createCody(cliEngineOptions(io, options.engine)));
  if (options.create !== false) await ensureCodyHome(context.paths);
  return context;
}

/**
 * `--ephemeral`: the same config, but conversations live in a private scratch directory that is removed
 * afterwards, so the turn writes no rollout (a continued conversation is copied there first).
 */
export async function ephemeralContext(
  context: CommandContext,
  fromId: string | undefined,
  engine?: EngineOptions,
): Promise<CommandContext> {
  await context.dispose();
  return contextOf(
    context.io,
    createCody({
      ...cliEngineOptions(context.io, engine),
      ephemeral: fromId !== undefined ? { from: fromId } : true,
    }),
  );
}

async function contextOf(io: Io, cody: Cody): Promise<CommandContext> {
  const { paths, config } = await cody.settings();
  return { io, cody, paths, config, dispose: () => cody.close() };
}

function cliEngineOptions(io: Io, engine: EngineOptions = {}): CreateCodyOptions {
  return {
    env: io.env,
    cwd: io.cwd,
    version: CLI_VERSION,
    canAsk: false,
    // A terminal's question is answered by the person looking at it: it waits for them, however long
    // (config.json's approvalTimeoutMs is for the library and cody serve, where nobody may be there).
    approvalTimeoutMs: 0,
    // Notices and MCP warnings go to stderr: shown, never obeyed.
    onNotice: (notice) => {
      const prefix = notice.level === 'warning' ? 'warning: ' : '';
      io.stderr.write(`${sanitizeForTerminal(`${prefix}${notice.message}`)}\n`);
    },
    ...engine,
  };
}

/** The provider, API and model a config selects, as `Conversation.setSelection` and `start` take them. */
export function selectionChoiceOf(config: CodyConfig): SelectionChoice {
  const selection = resolveSelection(config);
  return { provider: selection.provider, api: selection.apiName, model: selection.model };
}
