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
  private pending = new Map<string, (decision: ApprovalDecision) => void>();
  private turns = 0;

  constructor(id: string) {
    this.id = id;
  }

  async *submit(message: string, options: { signal?: AbortSignal } = {}): AsyncGenerator<EngineEvent> {
    try {
      yield* this.turn(message, options);
    } finally {
      if (this.releaseDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.releaseDelayMs));
    }
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
      yield {
        type: 'approval-requested',
        id,
        call: { type: 'function_call', name: 'shell' },
        reason: 'shell',
      };
      const decision = await new Promise<ApprovalDecision>((resolve) => this.pending.set(id, resolve));
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
      yield {
        type: 'turn-failed',
        error: { kind: 'not-found', message: `Conversation '${this.id}' not found.` },
      };
      return;
    }
    yield { type: 'state', state: 'Idle' };
    yield { type: 'turn-complete', turnId, status: 'completed', finishReason: 'stop' };
  }

  respond(approvalId: string, decision: ApprovalDecision): void {
    this.responses.push({ id: approvalId, decision });
    this.pending.get(approvalId)?.(decision);
    this.pending.delete(approvalId);
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

  status(): unknown {
    return { id: this.id, ...this.selection, approvalPolicy: this.approvalPolicy, contextTokens: 0 };
  }

  approvalPolicy = 'ask';

  setApprovalPolicy(policy: string): void {
    this.approvalPolicy = policy;
  }

  setSelection(selection: Selection): void {
    this.selection = selection;
  }

  abort(): void {}

  async close(): Promise<void> {
    this.closed = true;
  }
}

export class FakeEngine implements Engine {
  readonly conversations = new Map<string, FakeConversation>();
  private counter = 0;

  async list(): Promise<unknown[]> {
    return [...this.conversations.keys()].map((id) => ({ id }));
  }

  async create(selection?: Selection): Promise<FakeConversation> {
    this.counter += 1;
    const id = `0190c000-0000-7000-8000-${String(this.counter).padStart(12, '0')}`;
    const conversation = new FakeConversation(id);
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

  async delete(id: string): Promise<unknown> {
    await this.open(id);
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
}
