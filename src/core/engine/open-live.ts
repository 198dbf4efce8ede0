/**
 * Live conversations: the session of an id opened once (Session, its tools, the live channel's tap),
 * and a draft's opened from memory before its rollout exists.
 */
import { loadConfig } from '../config/index.js';
import { Conversation } from '../conversation/index.js';
import type { SelectionChoice, SessionOptions } from '../conversation/index.js';
import { newConversationId } from '../store/index.js';
import type { Cody } from './cody-api.js';
import type { Engine } from './engine-state.js';
import { hookSetOf } from './engine-hooks.js';

/** The live conversation of an id (or unique prefix), with `selection` set when given. */
export async function openLive(
  engine: Engine,
  id: string,
  selection?: SelectionChoice,
): Promise<Conversation> {
  // An open conversation answers without a look at the store (a server asks on every request).
  const known = engine.live.get(id);
  if (known) engine.live.touch(id);
  const conversation = await (known ??
    (async () => openSession(engine, await (await engine.load()).manager.resolveId(id)))());
  if (selection) conversation.setSelection(selection);
  return conversation;
}

/** A new conversation whose rollout is written at its first turn (see Cody.draft). */
export function draftOpener(engine: Engine): Cody['draft'] {
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
        activate: start.activate === true,
      });
      const conversation = await openSession(engine, id, { initialItems, create });
      if (start.selection) conversation.setSelection(start.selection);
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
    const hookSet = await hookSetOf(engine);
    // Loaded beside the session, never awaited: a run that begins first has its events held for it.
    liveChannel.preload();
    const { canAsk, onLockWait } = options;
    const session = await Session.open({
      manager,
      conversationId: resolved,
      config,
      // Read again at each turn: `cody set-provider` applies to this conversation's next turn.
      readConfig: () => loadConfig(manager.paths.configFile),
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
      hooks: hookSet,
    });
    return new Conversation(session, {
      ...hooks,
      onRun: (kind) => liveChannel.tap(resolved, kind),
      onClose: () => {
        hooks.onClose();
        // close() waits for the tools (MCP servers) to shut down, and the SessionEnd hooks to run.
        const closed = (async () => {
          const said = await session.endHooks('other');
          for (const message of said) options.onNotice?.({ level: 'warning', message });
          await tools?.close?.();
        })().catch(() => undefined);
        closing.add(closed);
        void closed.then(() => closing.delete(closed));
      },
    });
  });
}
