/**
 * A bridge from the server's engine port to today's core pieces (ConversationManager + Session), used
 * until the library's `createCody` is in core; then `cody serve` drives `createCody` instead.
 */
import type { CodyConfig } from '../core/config.js';
import { loadConfig, PROVIDERS, resolveSelection, type Provider } from '../core/config.js';
import { ConversationManager } from '../core/conversation-manager.js';
import { UsageError } from '../core/errors.js';
import type { CodyPaths } from '../core/paths.js';
import type { Session } from '../core/session.js';
import { startConversation } from '../core/start-conversation.js';
import { DEFAULT_APPROVAL_POLICY } from '../core/tools/policy.js';
import { createToolRuntime, type CodyToolRuntime } from '../core/tools/runtime.js';
import type { ApprovalDecision, Engine, EngineConversation, EngineEvent, Selection } from './engine-port.js';

export interface SessionEngineOptions {
  paths: CodyPaths;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  cliVersion: string;
}

export function createSessionEngine(options: SessionEngineOptions): Engine {
  let configPromise: Promise<CodyConfig> | undefined;
  const config = (): Promise<CodyConfig> => (configPromise ??= loadConfig(options.paths.configFile));
  const managerPromise = config().then(
    (loaded) =>
      new ConversationManager(options.paths, {
        cliVersion: options.cliVersion,
        ...(loaded.lockTimeoutMs !== undefined ? { lockTimeoutMs: loaded.lockTimeoutMs } : {}),
      }),
  );
  const selections = new Map<string, CodyConfig>();

  const configFor = async (id: string): Promise<CodyConfig> => selections.get(id) ?? (await config());

  const open = async (id: string): Promise<EngineConversation> => {
    const manager = await managerPromise;
    const resolved = await manager.resolveId(id);
    const { Session } = await import('../core/session.js');
    let session: Session | undefined;
    let sessionConfig: CodyConfig | undefined;
    const current = async (): Promise<Session> => {
      const wanted = await configFor(resolved);
      if (!session || sessionConfig !== wanted) {
        sessionConfig = wanted;
        session = await Session.open({
          manager,
          conversationId: resolved,
          config: wanted,
          env: options.env,
          cwd: options.cwd,
          canAsk: true,
          ...(wanted.tools === false ? {} : { tools: serverTools(wanted, options) }),
        });
      }
      return session;
    };
    await current();
    return {
      id: resolved,
      async *submit(message: string, submitOptions: { signal?: AbortSignal } = {}) {
        yield* (await current()).submit(message, submitOptions) as AsyncIterable<EngineEvent>;
      },
      respond(approvalId: string, decision: ApprovalDecision) {
        session?.respond(approvalId, decision);
      },
      async *compact(focus?: string, compactOptions: { signal?: AbortSignal } = {}) {
        yield* (await current()).compact(focus, compactOptions.signal) as AsyncIterable<EngineEvent>;
      },
      status: async () => (await current()).status(),
      setSelection: async (selection: Selection) => {
        selections.set(resolved, withSelection(await config(), selection));
      },
      abort() {},
      close: async () => undefined,
    };
  };

  return {
    list: async () => (await managerPromise).listConversations(),
    async create(selection?: Selection) {
      const manager = await managerPromise;
      const base = await config();
      const wanted = selection ? withSelection(base, selection) : base;
      const id = await startConversation(manager, wanted, {
        cwd: options.cwd,
        tools:
          wanted.tools === false
            ? []
            : serverTools(wanted, options)
                .specs()
                .map((spec) => spec.name),
      });
      if (selection) selections.set(id, wanted);
      return open(id);
    },
    open,
    async get(id: string) {
      const manager = await managerPromise;
      const resolved = await manager.resolveId(id);
      const [summary] = (await manager.listConversations()).filter((entry) => entry.id === resolved);
      return summary;
    },
    delete: async (id: string) => (await managerPromise).deleteConversation(id),
    fork: async () => {
      throw new UsageError('Forking needs the library engine (createCody).');
    },
    async transcript(id: string, transcriptOptions: { after?: string; limit?: number } = {}) {
      const manager = await managerPromise;
      const resolved = await manager.resolveId(id);
      const { readTranscript } = await import('../core/transcript.js');
      const { entries } = await readTranscript(manager.rolloutPath(resolved));
      const start = transcriptOptions.after !== undefined ? Number(transcriptOptions.after) : 0;
      if (!Number.isInteger(start) || start < 0)
        throw new UsageError(`'after' must be a cursor from 'next'.`);
      const limit = transcriptOptions.limit ?? 100;
      const page = entries.slice(start, start + limit);
      return { entries: page, next: start + limit < entries.length ? String(start + limit) : null };
    },
  };
}

function withSelection(config: CodyConfig, selection: Selection): CodyConfig {
  if (!(PROVIDERS as readonly string[]).includes(selection.provider)) {
    throw new UsageError(`Unknown provider '${selection.provider}'. Choose one of: ${PROVIDERS.join(', ')}.`);
  }
  const provider = selection.provider as Provider;
  const wanted = {
    ...config,
    provider,
    ...(selection.api !== undefined ? { api: selection.api } : { api: undefined }),
    ...(selection.model !== undefined ? { model: selection.model } : { model: undefined }),
  } as CodyConfig;
  resolveSelection(wanted); // a provider without that API is refused now, not at the next turn
  return wanted;
}

/** The tools a served conversation offers, under the configured approval policy (asked over the API). */
function serverTools(config: CodyConfig, options: SessionEngineOptions): CodyToolRuntime {
  return createToolRuntime({
    cwd: options.cwd,
    policy: config.approval ?? DEFAULT_APPROVAL_POLICY,
    ...(config.sandbox ? { sandbox: config.sandbox } : {}),
    ...(config.shellTimeoutMs !== undefined ? { shellTimeoutMs: config.shellTimeoutMs } : {}),
    env: options.env,
  });
}
