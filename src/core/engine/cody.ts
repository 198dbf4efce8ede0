/**
 * The engine as a library: `createCody({ home, env, cwd })` is the conversation store (list, create,
 * get, delete, import, fork, transcript) and hands out live conversations (`open`). Every front end —
 * the CLI, `cody serve`, a program embedding Cody — drives conversations through it.
 *
 * Live conversations are registered per process (live-conversations.ts): `open(id)` twice gives the same
 * handle, so one turn at a time per conversation holds for everyone in the process (a second submit is
 * refused with 'busy'), and an approval request is answered by its id alone (`respond`).
 */
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type CodyConfig } from '../config/index.js';
import { Conversation } from '../conversation/index.js';
import { LiveConversations } from './live-conversations.js';
import type { ApprovalDecision } from '../conversation/index.js';
import { ConversationManager } from '../store/index.js';
import { applyTitle } from '../store/index.js';
import { newConversationId } from '../store/index.js';
import { checkTitle, readTitles, writeTitle } from '../store/index.js';
import type { ExportFormat } from '../store/index.js';
import type { ConversationSummary } from '../rollout/index.js';
import { checkSelection } from '../selection/index.js';
import { ensureCodyHome, resolveCodyPaths, type CodyPaths } from '../config/index.js';
import type { ClientOptions, ModelClient } from '../../protocol/index.js';
import type { CodyNotice, SelectionChoice } from '../conversation/index.js';
import { engineRuntime } from './engine-runtime.js';
import { registerStore, type Store } from './front-end-store.js';
import type { ForkOptions } from '../store/index.js';
import type { TranscriptPage, TranscriptPageOptions } from '../rollout/index.js';
import type { ApprovalPolicy } from '../tools/index.js';
import type { ToolRuntime } from '../tools/index.js';
import type { SessionOptions } from '../conversation/index.js';
import {
  lazyLive,
  type EngineLiveOptions,
  type LazyLive,
  type LiveRun,
  type LiveWatch,
} from '../live-channel/index.js';

export interface CreateCodyOptions {
  /** Cody's home (conversations, config); default `$CODY_HOME`, else `~/.cody`. */
  home?: string;
  /** Where API keys and settings are read from; default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The working directory tools run in and turns record; default `process.cwd()`. */
  cwd?: string;
  /** The approval policy of the built-in tools; default config.json's `approval`, else 'ask'. */
  approvalPolicy?: ApprovalPolicy;
  /**
   * Without a sandbox, full-auto runs unasked even the commands Cody cannot show stay in the workspace
   * (`--dangerously-skip-confinement`); default config.json's `dangerouslySkipConfinement`, else false.
   */
  unconfined?: boolean;
  /**
   * Whether the caller answers `approval-requested` events (default true). When false, a call the policy
   * would ask about is denied with a reason the model sees, and nothing waits. A function is asked at
   * each approval, with the conversation's id (a server answers whether a client is attached).
   */
  canAsk?: boolean | ((conversationId: string) => Promise<boolean>);
  /**
   * How long an `approval-requested` waits for `respond` before the call is declined with the reason
   * "no answer" and the turn goes on; default config.json's `approvalTimeoutMs`, else 10 minutes. 0: it
   * waits until answered or aborted.
   */
  approvalTimeoutMs?: number;
  /**
   * Closes a live conversation with no turn running, no `hold` and no use for this long (a server that
   * runs for days); default: never. A closed `Conversation` refuses new turns; `open` gives a new one.
   */
  idleCloseMs?: number;
  /** Replaces the built-in tools (tests; programs with tools of their own). `false`: no tools at all. */
  tools?: ToolRuntime | false;
  /** Builds the model client (tests point it elsewhere). */
  clientFactory?: (options: ClientOptions) => Promise<ModelClient>;
  /** Recorded in each new conversation's session_meta. */
  version?: string;
  /**
   * Exact values redacted from every event and rollout, besides the keys Cody reads (provider key
   * variables, stored keys, `cody serve`'s token file), the known key shapes and config.json's `redact`.
   */
  secrets?: readonly string[];
  /** Told what the person should know outside a turn: bubblewrap missing, an MCP server failing. */
  onNotice?: (notice: CodyNotice) => void;
  /** Called once when another process holds a conversation's lock and this one starts waiting. */
  onLockWait?: (conversationId: string) => void;
  /**
   * Conversations live in a private scratch directory, removed by `close()`: nothing is saved. `from`
   * (a resolved id in the home) is copied there first and made active, to continue it.
   */
  ephemeral?: boolean | { from?: string };
}

export interface Cody {
  /** The conversations, newest activity first (what `cody list` shows). */
  list(): Promise<ConversationSummary[]>;
  /** A new conversation, with the configured provider/model unless `selection` says otherwise. */
  create(selection?: SelectionChoice): Promise<Conversation>;
  /** The live conversation with that id (or unique prefix); the same object for every caller. */
  open(id: string): Promise<Conversation>;
  get(id: string): Promise<ConversationSummary>;
  /**
   * Deletes a conversation: refused with 'busy' while a turn runs on it, unless `abortRunning` (the turn
   * is then interrupted and recorded before the file goes).
   */
  delete(id: string, options?: { abortRunning?: boolean }): Promise<void>;
  /**
   * Sets the title `list` and `get` show (what `cody rename` does; '' goes back to the generated one);
   * answers with the summary as renamed.
   */
  rename(id: string, title: string): Promise<ConversationSummary>;
  /** Imports a Codex rollout as a new conversation. */
  import(path: string): Promise<ConversationSummary>;
  /** A new conversation branching from another: the whole history, or what came before user turn n. */
  fork(id: string, options?: ForkOptions): Promise<Conversation>;
  /** Every recorded item, a page at a time: `after` is the `next` cursor of the previous page. */
  transcript(id: string, options?: TranscriptPageOptions): Promise<TranscriptPage>;
  /** The whole conversation written out (what `cody export` writes), redacted with the config's patterns. */
  export(id: string, format: ExportFormat): Promise<string>;
  /** Interrupts the turn running on that conversation in this process, if any. */
  abort(id: string): boolean;
  /**
   * Answers an approval request by its id, on whichever live conversation asked it: that conversation's
   * id, or undefined when no request with that id waits (answered already, declined "no answer", ended).
   */
  respond(approvalId: string, decision: ApprovalDecision, reason?: string): string | undefined;
  /** Keeps a live conversation from being closed for idleness until the returned function is called. */
  hold(id: string): () => void;
  /** Called with the id of each live conversation closed (idle, deleted, or found deleted). */
  onClose(listener: (id: string) => void): () => void;
  /**
   * Watches the turns (and compactions) another process runs on that conversation — `cody chat` in a
   * terminal while a server shows it: `onRun` is told of the one going on now and of each that begins
   * later, with its events from its start (redacted with this engine's secrets too). This engine's own
   * runs are not told. `ready` resolves once the run going on now, if any, was told.
   */
  watchLive(id: string, onRun: (run: LiveRun) => void): LiveWatch;
  /** Interrupts every running turn and forgets the live conversations. */
  close(): Promise<void>;
}

export function createCody(options: CreateCodyOptions = {}): Cody {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const homePaths = resolveCodyPaths(options.home !== undefined ? { ...env, CODY_HOME: options.home } : env);
  let scratch: string | undefined;
  let store: Promise<Omit<Store, 'draft'>> | undefined;
  const load = (): Promise<Omit<Store, 'draft'>> =>
    (store ??= openStore(options, homePaths, env, cwd).then((opened) => {
      scratch = opened.scratch;
      return opened.store;
    }));
  const live = new LiveConversations(
    options.idleCloseMs !== undefined ? { idleCloseMs: options.idleCloseMs } : {},
  );
  const engine: Engine = {
    options,
    env,
    cwd,
    load,
    live,
    // Every turn is offered to other processes on the live channel (not an ephemeral conversation's).
    liveChannel: lazyLive(liveOptions(options, homePaths.home, env, load)),
    closing: new Set(),
  };
  const draft = draftOpener(engine);
  const cody: Cody = {
    ...storeMethods(engine),
    abort: (id) => live.abort(id),
    respond: (approvalId, decision, reason) => live.respond(approvalId, decision, reason),
    hold: (id) => live.hold(id),
    onClose: (listener) => live.onClose(listener),
    watchLive: (id, onRun) => engine.liveChannel.watch(id, onRun),
    close: async () => {
      engine.liveChannel.close();
      await live.closeAll();
      await Promise.all(engine.closing);
      if (scratch !== undefined) await rm(scratch, { recursive: true, force: true });
    },
  };
  registerStore(cody, () => load().then((opened) => ({ ...opened, draft })));
  return cody;
}

/** What the engine's parts share: its options, where it runs, its store (opened once) and its live conversations. */
interface Engine {
  options: CreateCodyOptions;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  load: () => Promise<Omit<Store, 'draft'>>;
  live: LiveConversations;
  liveChannel: LazyLive;
  /** Tool runtimes of closed conversations still shutting down. */
  closing: Set<Promise<unknown>>;
}

/** The conversation store's half of `Cody`: list, create, open, get, delete, rename, import, fork, transcript, export. */
function storeMethods(
  engine: Engine,
): Omit<Cody, 'abort' | 'respond' | 'hold' | 'onClose' | 'watchLive' | 'close'> {
  const { load, live } = engine;
  return {
    list: async () => (await load()).manager.listConversations(),
    create: async (selection) => {
      if (selection) checkSelection(selection);
      // Never the CLI's active conversation: only a CLI command the person aims at one changes that.
      const store = await load();
      return openLive(
        engine,
        await store.start({ ...(selection ? { choice: selection } : {}), activate: false }),
      );
    },
    open: (id) => openLive(engine, id),
    get: (id) => getSummary(engine, id),
    delete: async (id, deleteOptions = {}) => {
      const { manager } = await load();
      const resolved = await manager.resolveId(id);
      await live.end(resolved, deleteOptions.abortRunning === true);
      await manager.deleteConversation(resolved);
    },
    import: async (path) =>
      getSummary(engine, (await (await load()).importRollout(path, { activate: false })).id),
    fork: async (id, forkOptions = {}) => {
      const { manager } = await load();
      const { forkConversation } = await import('../store/fork.js');
      const forkId = await forkConversation(manager, await manager.resolveId(id), forkOptions, {
        activate: false,
      });
      return openLive(engine, forkId);
    },
    transcript: async (id, pageOptions = {}) => {
      const { manager } = await load();
      return manager.store.transcriptPage(await manager.resolveId(id), pageOptions);
    },
    rename: async (id, title) => {
      const { manager, paths } = await load();
      const resolved = await manager.resolveId(id);
      await writeTitle(paths.home, resolved, checkTitle(title));
      return getSummary(engine, resolved);
    },
    export: (id, format) => exportConversation(engine, id, format),
  };
}

async function getSummary(engine: Engine, id: string): Promise<ConversationSummary> {
  const { manager, paths } = await engine.load();
  const resolved = await manager.resolveId(id);
  const summary = manager.store.summary(resolved);
  applyTitle(summary, readTitles(paths.home));
  return summary;
}

/** What `/export` writes: key shapes, config's patterns and every exact secret Cody knows, redacted. */
async function exportConversation(engine: Engine, id: string, format: ExportFormat): Promise<string> {
  const { manager, config, paths } = await engine.load();
  const resolved = await manager.resolveId(id);
  const [{ redactDeep }, { knownSecretsRedactor }, { formatExport }] = await Promise.all([
    import('../redact/redact.js'),
    import('../redact/known-secrets.js'),
    import('../store/export-formats.js'),
  ]);
  const transcript = redactDeep(
    await manager.store.transcript(resolved),
    await knownSecretsRedactor(config.redact ?? [], engine.env, paths.home),
  );
  return formatExport(format, resolved, readTitles(paths.home).get(resolved), transcript);
}

/** The live conversation of an id (or unique prefix), with `selection` set when given. */
async function openLive(engine: Engine, id: string, selection?: SelectionChoice): Promise<Conversation> {
  // An open conversation answers without a look at the store (a server asks on every request).
  const known = engine.live.get(id);
  if (known) engine.live.touch(id);
  const conversation = await (known ??
    (async () => openSession(engine, await (await engine.load()).manager.resolveId(id)))());
  if (selection) conversation.setSelection(selection);
  return conversation;
}

/** A new conversation whose rollout is written at its first turn (see Store.draft). */
function draftOpener(engine: Engine): Store['draft'] {
  return (start = {}) => {
    const id = newConversationId();
    const open = async (): Promise<Conversation> => {
      const known = engine.live.get(id);
      if (known) return known;
      const { manager, runtime } = await engine.load();
      const { conversationDraft } = await import('../conversation/start-conversation.js');
      const { initialItems, create } = conversationDraft(manager, {
        id,
        cwd: engine.cwd,
        tools: await runtime.toolNames(),
        ...(start.activate !== undefined ? { activate: start.activate } : {}),
      });
      const conversation = await openSession(engine, id, { initialItems, create });
      if (start.choice) conversation.setSelection(start.choice);
      return conversation;
    };
    return { id, open };
  };
}

/** The live conversation of a resolved id, its session opened the first time (a draft's from memory). */
function openSession(
  engine: Engine,
  resolved: string,
  draft?: SessionOptions['draft'],
): Promise<Conversation> {
  return engine.live.open(resolved, async (hooks) => {
    const { options, env, cwd, liveChannel, closing } = engine;
    const { manager, config, runtime } = await engine.load();
    const { Session } = await import('../conversation/session.js');
    const tools = await runtime.createTools();
    // Loaded beside the session, never awaited: a run that begins first has its events held for it.
    liveChannel.preload();
    const { canAsk, onLockWait } = options;
    const session = await Session.open({
      manager,
      conversationId: resolved,
      config,
      env,
      cwd,
      canAsk: typeof canAsk === 'function' ? () => canAsk(resolved) : canAsk !== false,
      followConversationPolicy: runtime.followConversationPolicy,
      approvalTimeoutMs: runtime.approvalTimeoutMs,
      ...(options.secrets ? { secrets: options.secrets } : {}),
      ...(onLockWait ? { onLockWait: () => onLockWait(resolved) } : {}),
      ...(tools ? { tools } : {}),
      ...(options.clientFactory ? { clientFactory: options.clientFactory } : {}),
      ...(draft ? { draft } : {}),
    });
    return new Conversation(session, {
      ...hooks,
      onRun: (kind) => liveChannel.tap(resolved, kind),
      onClose: () => {
        hooks.onClose();
        // close() waits for the tools (MCP servers) to shut down.
        const closed = (async () => tools?.close?.())().catch(() => undefined);
        closing.add(closed);
        void closed.then(() => closing.delete(closed));
      },
    });
  });
}

/**
 * What the engine's live channel needs: where it lives, and the engine's secrets to redact with; none
 * for an ephemeral engine (its conversations are nobody else's).
 */
function liveOptions(
  options: CreateCodyOptions,
  home: string,
  env: Readonly<Record<string, string | undefined>>,
  load: () => Promise<{ config: CodyConfig }>,
): EngineLiveOptions | undefined {
  if (options.ephemeral) return undefined;
  return {
    home,
    env,
    secrets: options.secrets ?? [],
    patterns: async () => (await load()).config.redact ?? [],
  };
}

/** Reads config.json, turns it into the runtime, and opens the conversation store (a scratch one with `ephemeral`). */
async function openStore(
  options: CreateCodyOptions,
  homePaths: CodyPaths,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): Promise<{ store: Omit<Store, 'draft'>; scratch?: string }> {
  let paths = homePaths;
  let scratch: string | undefined;
  const config = await loadConfig(homePaths.configFile);
  const runtime = engineRuntime(config, {
    cwd,
    env,
    home: homePaths.home,
    version: options.version ?? 'library',
    approvalPolicy: options.approvalPolicy,
    approvalTimeoutMs: options.approvalTimeoutMs,
    unconfined: options.unconfined,
    tools: options.tools,
    onNotice: options.onNotice,
  });
  if (options.ephemeral) {
    scratch = await mkdtemp(join(tmpdir(), 'cody-ephemeral-'));
    paths = await scratchPaths(homePaths, scratch);
  }
  const manager = new ConversationManager(paths, runtime.managerOptions);
  const from = typeof options.ephemeral === 'object' ? options.ephemeral.from : undefined;
  if (from !== undefined) {
    const home = new ConversationManager(homePaths, runtime.managerOptions);
    await copyFile(home.rolloutPath(from), manager.rolloutPath(from));
    await manager.setActive(from);
  }
  const store: Omit<Store, 'draft'> = {
    paths,
    config,
    manager,
    runtime,
    start: async (start = {}) => {
      await ensureCodyHome(paths);
      const { startConversation } = await import('../conversation/start-conversation.js');
      return startConversation(manager, start.config ?? config, {
        cwd,
        tools: await runtime.toolNames(),
        ...(start.choice ? { choice: start.choice } : {}),
        ...(start.activate !== undefined ? { activate: start.activate } : {}),
      });
    },
    importRollout: async (path, where = {}) => {
      const { importConversation } = await import('../conversation/start-conversation.js');
      return importConversation(manager, {
        path,
        cwd,
        tools: await runtime.toolNames(),
        ...(where.activate !== undefined ? { activate: where.activate } : {}),
      });
    },
  };
  return { store, ...(scratch !== undefined ? { scratch } : {}) };
}

/** The home's paths with conversations (and the active pointer) in a scratch directory. */
async function scratchPaths(home: CodyPaths, scratch: string): Promise<CodyPaths> {
  const paths: CodyPaths = {
    ...home,
    home: scratch,
    conversationsDir: join(scratch, 'conversations'),
    activeFile: join(scratch, 'active'),
  };
  await ensureCodyHome(paths);
  return paths;
}
