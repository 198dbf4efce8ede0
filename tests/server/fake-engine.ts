/**
 * A scripted stand-in for the engine, for testing the HTTP layer alone (routes, SSE, errors, shutdown).
 * The real engine is exercised by the e2e tests that spawn `bin/cody serve`.
 */
import { CodyError, UnknownConversationError } from '../../src/core/errors.js';
import type {
  ApprovalDecision,
  Engine,
  EngineConversation,
  EngineEvent,
  PendingApprovalView,
  RemoteRun,
  Selection,
} from '../../src/server/engine-port.js';

export class FakeConversation implements EngineConversation {
  readonly id: string;
  selection: Selection = { provider: 'openai', api: 'chat', model: 'gpt-4o-mini' };
  readonly submitted: string[] = [];
  readonly responses: Array<{ id: string; decision: ApprovalDecision }> = [];
  readonly compactions: Array<string | undefined> = [];
  closed = false;
  /** Set by a test: the turn waits on it before completing. */
  gate: Promise<void> | undefined;
  /** Time the turn takes to release its resources after its last event (the engine's lock and file). */
  releaseDelayMs = 0;
  /** As the engine's conversation: one turn at a time, and abort() stops it. */
  busy = false;
  private running: AbortController | undefined;
  private pending = new Map<
    string,
    { view: PendingApprovalView; answer: (decision: ApprovalDecision) => void }
  >();
  private turns = 0;
  private gone = false;
  private readonly onClose: (id: string) => void;

  constructor(id: string, onClose: (id: string) => void = () => undefined) {
    this.id = id;
    this.onClose = onClose;
  }

  submit(message: string): AsyncGenerator<EngineEvent> {
    if (this.busy) throw new CodyError(`A turn is already running on conversation ${this.id}.`, 'busy');
    this.busy = true;
    const running = new AbortController();
    this.running = running;
    return this.guarded(message, running.signal);
  }

  private async *guarded(message: string, signal: AbortSignal): AsyncGenerator<EngineEvent> {
    try {
      for await (const event of this.turn(message, { signal })) {
        if (event.type === 'state' && typeof event.state === 'string') this.state = event.state;
        yield event;
      }
    } finally {
      this.state = 'Idle';
      if (this.releaseDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.releaseDelayMs));
      this.busy = false;
      this.running = undefined;
      if (this.gone) await this.close();
    }
  }

  pendingApprovals(): PendingApprovalView[] {
    return [...this.pending.values()].map(({ view }) => view);
  }

  private async *turn(message: string, options: { signal?: AbortSignal }): AsyncGenerator<EngineEvent> {
    this.turns += 1;
    const turnId = `turn-${this.turns}`;
    this.submitted.push(message);
    if (message === 'fail-early') throw new CodyError('no key: set OPENAI_API_KEY', 'auth');
    yield { type: 'turn-started', turnId, provider: 'openai', api: 'chat', model: 'gpt-4o-mini' };
    yield { type: 'state', state: 'AwaitingLLMResponse' };
    for (const word of `echo: ${message}`.split(' ')) yield { type: 'text-delta', text: `${word} ` };
    if (message.includes('tool')) {
      const id = `approval-${this.turns}`;
      yield { type: 'state', state: 'AwaitingToolApproval' };
      const request: EngineEvent = {
        type: 'approval-requested',
        id,
        call: { type: 'function_call', name: 'shell', arguments: '{"command":"ls"}', call_id: 'c1' },
        reason: 'shell',
      };
      // Listed before it is sent, as the engine does.
      const answered = new Promise<ApprovalDecision>((resolve) => {
        const view: PendingApprovalView = {
          id,
          callId: 'c1',
          tool: 'shell',
          arguments: '{"command":"ls"}',
          reason: 'shell',
          requestedAt: new Date().toISOString(),
          request,
        };
        this.pending.set(id, { view, answer: resolve });
        options.signal?.addEventListener('abort', () => this.respond(id, 'abort'), { once: true });
      });
      yield request;
      const decision = await answered;
      yield { type: 'approval-resolved', id, decision };
    }
    if (this.gate) {
      const gate = this.gate;
      const aborted = new Promise<'aborted'>((resolve) => {
        if (options.signal?.aborted) resolve('aborted');
        options.signal?.addEventListener('abort', () => resolve('aborted'), { once: true });
      });
      if ((await Promise.race([gate, aborted])) === 'aborted') {
        yield { type: 'turn-complete', turnId, status: 'interrupted', finishReason: 'stop' };
        return;
      }
    }
    if (message === 'fail-late') throw new CodyError('provider said no', 'provider');
    // As the engine ends a turn when another process deleted the conversation under an open handle.
    if (message === 'gone') {
      // The engine then closes the conversation (and says so), as core's registry does.
      this.gone = true;
      yield {
        type: 'turn-failed',
        error: { kind: 'not-found', message: `Conversation '${this.id}' not found.` },
      };
      return;
    }
    yield { type: 'state', state: 'Idle' };
    yield { type: 'turn-complete', turnId, status: 'completed', finishReason: 'stop' };
  }

  respond(approvalId: string, decision: ApprovalDecision): boolean {
    const waiting = this.pending.get(approvalId);
    if (!waiting) return false;
    this.responses.push({ id: approvalId, decision });
    this.pending.delete(approvalId);
    waiting.answer(decision);
    return true;
  }

  async *compact(focus?: string): AsyncGenerator<EngineEvent> {
    this.compactions.push(focus);
    yield { type: 'compaction-started', trigger: 'manual', tokensBefore: 10 };
    yield {
      type: 'compaction-finished',
      trigger: 'manual',
      status: 'compacted',
      tokensBefore: 10,
      tokensAfter: 5,
    };
  }

  /** The turn state as the last `state` event told it (the engine's status reports its own). */
  state = 'Idle';

  status(): unknown {
    return {
      id: this.id,
      state: this.state,
      ...this.selection,
      approvalPolicy: this.approvalPolicy,
      ...(this.reasoning !== undefined ? { reasoning: this.reasoning } : {}),
      contextTokens: 0,
    };
  }

  approvalPolicy = 'ask';

  reasoning: string | undefined;
  setReasoning(level: string): void {
    this.reasoning = level;
  }
  setApprovalPolicy(policy: string): void {
    this.approvalPolicy = policy;
  }

  setSelection(selection: Selection): void {
    this.selection = selection;
  }

  abort(): boolean {
    this.running?.abort();
    return this.running !== undefined;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.abort();
    this.onClose(this.id);
  }
}

export class FakeEngine implements Engine {
  readonly conversations = new Map<string, FakeConversation>();
  /** Conversations held open by attached clients, by id. */
  readonly holds = new Map<string, number>();
  private readonly closeListeners = new Set<(id: string) => void>();
  private counter = 0;

  /** What the engine does when it closes a conversation (idle, deleted): its listeners hear of it. */
  private closed(id: string): void {
    for (const listener of this.closeListeners) listener(id);
  }

  abort(id: string): boolean {
    return this.conversations.get(id)?.abort() ?? false;
  }

  respond(approvalId: string, decision: ApprovalDecision): string | undefined {
    for (const conversation of this.conversations.values())
      if (conversation.respond(approvalId, decision)) return conversation.id;
    return undefined;
  }

  hold(id: string): () => void {
    this.holds.set(id, (this.holds.get(id) ?? 0) + 1);
    return () => this.holds.set(id, (this.holds.get(id) ?? 1) - 1);
  }

  onClose(listener: (id: string) => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  /** Who watches each conversation for other processes' runs (`startRemoteRun` tells them). */
  readonly watchers = new Map<string, Set<(run: RemoteRun) => void>>();

  watchLive(id: string, onRun: (run: RemoteRun) => void): { ready: Promise<void>; stop(): void } {
    const watchers = this.watchers.get(id) ?? new Set();
    this.watchers.set(id, watchers.add(onRun));
    return { ready: Promise.resolve(), stop: () => watchers.delete(onRun) };
  }

  /** Another process's run on that conversation, as the engine's live channel would tell of it. */
  startRemoteRun(id: string, run: RemoteRun): number {
    const watchers = [...(this.watchers.get(id) ?? [])];
    for (const watcher of watchers) watcher(run);
    return watchers.length;
  }

  async list(): Promise<unknown[]> {
    return [...this.conversations.keys()].map((id) => ({ id }));
  }

  async create(selection?: Selection): Promise<FakeConversation> {
    this.counter += 1;
    const id = `0190c000-0000-7000-8000-${String(this.counter).padStart(12, '0')}`;
    const conversation = new FakeConversation(id, (closed) => this.closed(closed));
    if (selection) conversation.selection = selection;
    this.conversations.set(id, conversation);
    return conversation;
  }

  async open(id: string): Promise<FakeConversation> {
    const conversation = this.conversations.get(id);
    if (!conversation) throw new UnknownConversationError(id);
    return conversation;
  }

  async get(id: string): Promise<unknown> {
    const conversation = await this.open(id);
    return { id, provider: conversation.selection.provider, model: conversation.selection.model };
  }

  readonly titles = new Map<string, string>();

  async rename(id: string, title: string): Promise<unknown> {
    await this.open(id);
    this.titles.set(id, title);
    return { ...((await this.get(id)) as object), title };
  }

  async delete(id: string, options: { abortRunning?: boolean } = {}): Promise<unknown> {
    const conversation = await this.open(id);
    if (conversation.busy && options.abortRunning !== true)
      throw new CodyError(`A turn is running on conversation ${id}.`, 'busy');
    await conversation.close();
    this.conversations.delete(id);
    return id;
  }

  async fork(id: string): Promise<FakeConversation> {
    await this.open(id);
    return this.create();
  }

  async transcript(id: string, options: { after?: string; limit?: number } = {}): Promise<unknown> {
    const conversation = await this.open(id);
    const start = options.after !== undefined ? Number(options.after) : 0;
    const limit = options.limit ?? 50;
    const messages = conversation.submitted
      .slice(start, start + limit)
      .map((text) => ({ role: 'user', text }));
    const next = start + limit < conversation.submitted.length ? String(start + limit) : null;
    return { messages, next };
  }

  async export(id: string, format: 'md' | 'json' | 'html'): Promise<string> {
    const conversation = await this.open(id);
    return `${format}: ${conversation.submitted.join('\n')}`;
  }
}
