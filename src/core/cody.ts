/**
 * The engine as a library: `createCody({ home, env, cwd })` is the conversation store (list, create,
 * get, delete, import, fork, transcript) and hands out live conversations (`open`). Every front end —
 * the CLI, `cody serve`, a program embedding Cody — drives conversations through it.
 *
 * Live conversations are registered per process (live-conversations.ts): `open(id)` twice gives the same
 * handle, so one turn at a time per conversation holds for everyone in the process (a second submit is
 * refused with 'busy'), and an approval request is answered by its id alone (`respond`).
 */
import { loadConfig, type CodyConfig } from './config.js';
import { Conversation } from './conversation.js';
import { LiveConversations } from './live-conversations.js';
import { DEFAULT_APPROVAL_TIMEOUT_MS } from './agent/approvals.js';
import type { ApprovalDecision } from './session-events.js';
import { ConversationManager } from './conversation-manager.js';
import { applyTitle } from './conversation-list.js';
import { readTitles } from './conversation-titles.js';
import type { ConversationSummary } from './rollout/summary-reader.js';
import { checkSelection } from './selection-check.js';
import { ensureCodyHome, resolveCodyPaths, type CodyPaths } from './paths.js';
import type { ClientOptions, ModelClient } from '../protocol/index.js';
import type { SelectionChoice } from './conversation-engine.js';
import { forkConversation } from './store/fork.js';
import type { ForkOptions } from './store/fork-options.js';
import {
  readTranscriptPage,
  type TranscriptPage,
  type TranscriptPageOptions,
} from './store/transcript-page.js';
import { startConversation, importConversation } from './start-conversation.js';
import type { ApprovalPolicy } from './tools/policy.js';
import type { ToolRuntime } from './tools/tool-runtime.js';

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
  /** Imports a Codex rollout as a new conversation. */
  import(path: string): Promise<ConversationSummary>;
  /** A new conversation branching from another: the whole history, or what came before user turn n. */
  fork(id: string, options?: ForkOptions): Promise<Conversation>;
  /** Every recorded item, a page at a time: `after` is the `next` cursor of the previous page. */
  transcript(id: string, options?: TranscriptPageOptions): Promise<TranscriptPage>;
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
  /** Interrupts every running turn and forgets the live conversations. */
  close(): Promise<void>;
}

interface Store {
  paths: CodyPaths;
  config: CodyConfig;
  manager: ConversationManager;
}

export function createCody(options: CreateCodyOptions = {}): Cody {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const paths = resolveCodyPaths(options.home !== undefined ? { ...env, CODY_HOME: options.home } : env);
  const live = new LiveConversations(
    options.idleCloseMs !== undefined ? { idleCloseMs: options.idleCloseMs } : {},
  );
  let store: Promise<Store> | undefined;
  const load = (): Promise<Store> =>
    (store ??= (async () => {
      const config = await loadConfig(paths.configFile);
      const manager = new ConversationManager(paths, {
        cliVersion: options.version ?? 'library',
        ...(config.lockTimeoutMs !== undefined ? { lockTimeoutMs: config.lockTimeoutMs } : {}),
      });
      return { paths, config, manager };
    })());

  const toolNames = async (config: CodyConfig): Promise<readonly string[]> => {
    if (options.tools === false || config.tools === false) return [];
    if (options.tools) return options.tools.specs().map((spec) => spec.name);
    const { BUILTIN_TOOL_SPECS } = await import('./tools/tool-specs.js');
    return BUILTIN_TOOL_SPECS.map((spec) => spec.name);
  };

  const tools = async (config: CodyConfig): Promise<ToolRuntime | undefined> => {
    if (options.tools === false || config.tools === false) return undefined;
    if (options.tools) return options.tools;
    const { createToolRuntime } = await import('./tools/runtime.js');
    const { toolOptionsFromConfig } = await import('./tools/runtime-config.js');
    return createToolRuntime({
      cwd,
      policy: options.approvalPolicy ?? config.approval ?? 'ask',
      ...toolOptionsFromConfig(config),
      env: { ...env },
    });
  };

  const canAsk = options.canAsk;
  const openLive = async (id: string, selection?: SelectionChoice): Promise<Conversation> => {
    // An open conversation answers without a look at the store (a server asks on every request).
    const known = live.get(id);
    if (known) live.touch(id);
    const conversation = await (known ??
      (async () => {
        const { manager, config } = await load();
        const resolved = await manager.resolveId(id);
        return live.open(resolved, async (hooks) => {
          const { Session } = await import('./session.js');
          const runtime = await tools(config);
          const session = await Session.open({
            manager,
            conversationId: resolved,
            config,
            env,
            cwd,
            canAsk: typeof canAsk === 'function' ? () => canAsk(resolved) : canAsk !== false,
            followConversationPolicy: options.approvalPolicy === undefined,
            approvalTimeoutMs:
              options.approvalTimeoutMs ?? config.approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS,
            ...(options.secrets ? { secrets: options.secrets } : {}),
            ...(runtime ? { tools: runtime } : {}),
            ...(options.clientFactory ? { clientFactory: options.clientFactory } : {}),
          });
          return new Conversation(session, {
            ...hooks,
            onClose: () => {
              hooks.onClose();
              void runtime?.close?.();
            },
          });
        });
      })());
    if (selection) conversation.setSelection(selection);
    return conversation;
  };

  const get = async (id: string): Promise<ConversationSummary> => {
    const { manager } = await load();
    const resolved = await manager.resolveId(id);
    const { readConversationSummary } = await import('./rollout/summary-reader.js');
    const summary = readConversationSummary(manager.rolloutPath(resolved));
    applyTitle(summary, readTitles(paths.home));
    return summary;
  };

  return {
    list: async () => (await load()).manager.listConversations(),
    create: async (selection) => {
      const { manager, config } = await load();
      if (selection) checkSelection(selection);
      await ensureCodyHome(paths);
      // Never the CLI's active conversation: only a CLI command the person aims at one changes that.
      const id = await startConversation(manager, config, {
        cwd,
        tools: await toolNames(config),
        activate: false,
        ...(selection ? { choice: selection } : {}),
      });
      return openLive(id);
    },
    open: (id) => openLive(id),
    get,
    delete: async (id, deleteOptions = {}) => {
      const { manager } = await load();
      const resolved = await manager.resolveId(id);
      await live.end(resolved, deleteOptions.abortRunning === true);
      await manager.deleteConversation(resolved);
    },
    import: async (path) => {
      const { manager, config } = await load();
      const { id } = await importConversation(manager, {
        path,
        cwd,
        tools: await toolNames(config),
        activate: false,
      });
      return get(id);
    },
    fork: async (id, forkOptions = {}) => {
      const { manager } = await load();
      const forkId = await forkConversation(manager, await manager.resolveId(id), forkOptions, {
        activate: false,
      });
      return openLive(forkId);
    },
    transcript: async (id, pageOptions = {}) => {
      const { manager } = await load();
      return readTranscriptPage(manager.rolloutPath(await manager.resolveId(id)), pageOptions);
    },
    abort: (id) => live.abort(id),
    respond: (approvalId, decision, reason) => live.respond(approvalId, decision, reason),
    hold: (id) => live.hold(id),
    onClose: (listener) => live.onClose(listener),
    close: () => live.closeAll(),
  };
}
