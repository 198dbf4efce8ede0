/**
 * Issue 7's turn-loop and compaction-flow defects, through the real binary against the fake provider:
 * the new message stays last after an automatic compaction (7.3), a killed turn or closed pipe ends
 * recorded as interrupted (7.7), a manual compaction of a short conversation is a plain no-op with one
 * set of figures (7.8), Ctrl-C during a retry wait is exit 130 and recorded (7.9), and a refused manual
 * summary keeps the history with chat's exit code (7.10). Conversations are started (`cody new`) in
 * process; the commands each defect is about are real processes.
 */
import { spawn } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatTokens } from '../../src/cli/turn-view/wording.js';
import { SUMMARY_PREFIX } from '../../src/core/compact/index.js';
import { CODY_BIN, createHarness, type Harness, linesOfType } from './harness.js';
import { codyInProcess } from './in-process.js';
import { libraryTurns } from './library-turns.js';

const TINY_CONFIG = {
  provider: 'openai',
  api: 'chat',
  model: 'tiny-model',
  models: { 'tiny-model': { contextWindow: 4_000, maxOutputTokens: 500 } },
  retry: { baseDelayMs: 5 },
  tools: false,
};
const FILLER = 'The quick brown fox jumps over the lazy dog while the compiler reports seventeen warnings. ';

type Message = { role: string; content: unknown };
const messagesOf = (body: unknown): Message[] => (body as { messages?: Message[] }).messages ?? [];
const textOf = (message: Message | undefined): string =>
  typeof message?.content === 'string' ? message.content : JSON.stringify(message?.content ?? '');

describe('turn loop and compaction flow (e2e)', () => {
  let harness: Harness;
  beforeEach(async () => {
    harness = await createHarness();
  });
  afterEach(async () => {
    await harness.close();
  });

  /** Starts `cody args` and resolves once stderr matches `ready`; the child is returned running. */
  const startCody = (args: string[], ready: RegExp) => {
    const child = spawn(process.execPath, [CODY_BIN, ...args], {
      cwd: harness.home,
      env: harness.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const seen = new Promise<void>((resolve) => {
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
        if (ready.test(stderr)) resolve();
      });
    });
    return { child, exited, seen, stderr: () => stderr };
  };

  it('7.3: after an automatic compaction the new message is the last item sent and recorded; resume sends the same', async () => {
    await harness.writeConfig(TINY_CONFIG);
    const question = (turn: number): string => `question ${turn}: ${FILLER.repeat(2)}`;
    // Where the first automatic compaction falls is deterministic: find it on a probe conversation
    // through the library (the engine cody chat runs), then build the real one there the same way up
    // to two turns before it, and spawn cody chat for the turns from there on.
    let probe: string | undefined;
    let firstCompaction = 0;
    for (let turn = 1; turn <= 30 && firstCompaction === 0; turn += 1) {
      const { id, events } = await libraryTurns(harness, [question(turn)], probe);
      probe = id;
      if (events.some((event) => event.type === 'compaction-started')) firstCompaction = turn;
    }
    expect(firstCompaction).toBeGreaterThan(3);
    harness.server.reset();
    const id = (await codyInProcess(harness, ['new'])).stdout.trim();
    const built = Array.from({ length: firstCompaction - 3 }, (_, index) => question(index + 1));
    const { events: buildEvents } = await libraryTurns(harness, built, id);
    expect(buildEvents.some((event) => event.type === 'compaction-started')).toBe(false);
    let compactedAt = -1;
    for (let turn = firstCompaction - 2; turn <= 30 && compactedAt < 0; turn += 1) {
      const before = harness.server.modelRequests().length;
      const run = await harness.cody(['chat', question(turn)]);
      expect(run.code, run.stderr).toBe(0);
      // The fake answers the last user message: a summary-shaped answer would show the bug.
      expect(run.stdout).toMatch(new RegExp(`^echo: question ${turn}:`));
      if (harness.server.modelRequests().length - before === 2) {
        compactedAt = turn;
        // The command line's one line per automatic compaction, with its figures.
        expect(run.stderr).toMatch(/^Compacting conversation \(auto\)… [\d.]+k? → [\d.]+k? tokens$/m);
      }
    }
    expect(compactedAt).toBeGreaterThan(0);
    const turnRequest = harness.server.modelRequests().at(-1);
    const sent = messagesOf(turnRequest?.body);
    expect(textOf(sent.at(-1))).toMatch(new RegExp(`^question ${compactedAt}:`));
    expect(textOf(sent.at(-2))).toContain(SUMMARY_PREFIX);
    const compacted = linesOfType(await harness.rollout(id), 'compacted').at(-1);
    const replacement = compacted?.payload.replacement_history as Array<{ type: string; content?: unknown }>;
    const lastMessage = replacement.filter((item) => item.type === 'message').at(-1);
    expect(JSON.stringify(lastMessage?.content)).toMatch(new RegExp(`question ${compactedAt}:`));

    // A fresh process resumes exactly that: summary, the message, its answer, then the next message.
    await harness.cody(['chat', 'and then?']);
    const resumed = messagesOf(harness.server.modelRequests().at(-1)?.body).slice(-4);
    expect(resumed.map((message) => message.role)).toEqual(['user', 'user', 'assistant', 'user']);
    expect(textOf(resumed[0])).toContain(SUMMARY_PREFIX);
    expect(textOf(resumed[1])).toMatch(new RegExp(`^question ${compactedAt}:`));
    expect(textOf(resumed[3])).toBe('and then?');
  }, 120_000);

  it('7.8: compacting a short conversation is a plain no-op, exit 0; a real one reports one figure everywhere', async () => {
    await harness.writeConfig(TINY_CONFIG);
    const id = (await codyInProcess(harness, ['new'])).stdout.trim();
    await codyInProcess(harness, ['chat', 'hi']);
    const noop = await harness.cody(['compact']);
    expect(noop.code, noop.stderr).toBe(0);
    expect(noop.stdout).toMatch(/^Nothing to compact in \S+: .+\.\n$/);
    expect(noop.stderr).not.toMatch(/failed|inflated/);
    expect(linesOfType(await harness.rollout(id), 'compacted')).toHaveLength(0);

    const fillers = [1, 2, 3, 4, 5, 6].map((turn) => `filler ${turn}: ${FILLER.repeat(2)}`);
    await libraryTurns(harness, fillers, id);
    const real = await harness.cody(['compact']);
    expect(real.code, real.stderr).toBe(0);
    const record = linesOfType(await harness.rollout(id), 'response_item')
      .map((line) => line.payload)
      .filter((payload) => payload.type === 'cody_context_compacted')
      .at(-1) as { tokens_before: number; tokens_after: number };
    const figures = `${formatTokens(record.tokens_before)} → ${formatTokens(record.tokens_after)} tokens`;
    expect(real.stdout).toContain(`✓ Compacted ${id}: ${figures}`);
    expect(real.stderr).toContain(figures);
    const shown = await harness.cody(['show']);
    expect(shown.stdout).toContain(formatTokens(record.tokens_before));
  }, 120_000);

  it('7.9: Ctrl-C while waiting to retry exits 130 and records the turn as interrupted', async () => {
    await harness.writeConfig({ ...TINY_CONFIG, retry: { baseDelayMs: 20_000, maxDelayMs: 20_000 } });
    const id = (await codyInProcess(harness, ['new'])).stdout.trim();
    harness.server.enqueue({ type: 'error', status: 500 });
    const run = startCody(['chat', 'please retry'], /Retrying/);
    await run.seen;
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(130);
    expect(run.stderr()).not.toMatch(/unexpected error/);
    const events = linesOfType(await harness.rollout(id), 'response_item').map((line) => line.payload);
    expect(events.at(-1)).toMatchObject({ type: 'cody_turn_aborted', reason: 'interrupted' });
    expect(harness.server.modelRequests()).toHaveLength(1);
  }, 60_000);

  it('7.10: a manual compaction refused with 401 keeps the history and exits 4, like chat', async () => {
    await harness.writeConfig(TINY_CONFIG);
    const id = (await codyInProcess(harness, ['new'])).stdout.trim();
    await libraryTurns(
      harness,
      [1, 2, 3].map((turn) => `filler ${turn}: ${FILLER}`),
      id,
    );
    const before = await harness.rollout(id);
    harness.server.enqueue({ type: 'error', status: 401 });
    const refused = await harness.cody(['compact']);
    expect(refused.code).toBe(4);
    expect(refused.stdout).not.toContain('✓');
    expect(refused.stderr).toMatch(/401/);
    expect(await harness.rollout(id)).toEqual(before);
    const next = await harness.cody(['chat', 'still here?']);
    expect(messagesOf(harness.server.modelRequests().at(-1)?.body).map(textOf).join('\n')).toContain(
      'filler 1',
    );
    expect(next.code).toBe(0);
  }, 60_000);

  it('7.7: a closed pipe never leaves a dangling turn (complete, or recorded as interrupted)', async () => {
    const slow = await createHarness({ chunkDelayMs: 200 });
    try {
      const id = (await codyInProcess(slow, ['new'])).stdout.trim();
      slow.server.enqueue({
        type: 'reply',
        text: 'one two three four five six seven eight nine ten eleven twelve',
      });
      const run = await slow.shell('$CODY chat "pipe me" | head -c 3; echo "exit ${PIPESTATUS[0]}" >&2');
      expect(run.stdout.length, run.stderr).toBeLessThanOrEqual(3);
      expect(run.stderr).toBe('exit 0\n');
      const lines = (await slow.rollout(id)).map(
        (line) =>
          JSON.parse(line) as {
            payload: { type?: string; role?: string; reason?: string; content?: { text?: string }[] };
          },
      );
      const kinds = lines.map((parsed) =>
        parsed.payload.type === 'message'
          ? String(parsed.payload.role)
          : `${parsed.payload.type}:${parsed.payload.reason ?? ''}`,
      );
      // A piped reply is held until it can no longer be retried (issue 7.5), so the pipe may close only
      // once the reply is complete: the turn then ends either complete or recorded as interrupted, never
      // dangling (a user message with neither a reply nor a marker after it).
      expect(['cody_turn_aborted:interrupted', 'cody_turn_complete:']).toContain(kinds.at(-1));
      const user = kinds.lastIndexOf('user');
      expect(user).toBeGreaterThan(-1);
      expect(
        kinds.slice(user + 1).some((kind) => kind === 'assistant' || kind.startsWith('cody_turn_aborted')),
      ).toBe(true);
      // Whatever of the reply is kept is kept once, before the end marker, and only as the model sent it.
      const assistants = lines.filter((parsed) => parsed.payload.role === 'assistant');
      expect(assistants.length).toBeLessThanOrEqual(1);
      if (assistants.length === 1) {
        expect(kinds.indexOf('assistant')).toBeLessThan(kinds.length - 1);
        const kept = (assistants[0]?.payload.content ?? []).map((part) => part.text ?? '').join('');
        expect('one two three four five six seven eight nine ten eleven twelve'.startsWith(kept)).toBe(true);
      }
    } finally {
      await slow.close();
    }
  }, 60_000);

  it('7.7: a turn killed mid-stream is closed as interrupted on the next open', async () => {
    const slow = await createHarness({ chunkDelayMs: 300 });
    try {
      const id = (await codyInProcess(slow, ['new'])).stdout.trim();
      slow.server.enqueue({ type: 'reply', text: 'a long and slow answer that will never finish streaming' });
      const child = spawn(process.execPath, [CODY_BIN, 'chat', 'doomed'], {
        cwd: slow.home,
        env: slow.env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      // A piped reply is held until final, so wait for the stream itself: the request, then two chunks.
      while (slow.server.modelRequests().length === 0)
        await new Promise((resolve) => setTimeout(resolve, 50));
      await new Promise((resolve) => setTimeout(resolve, 700));
      child.kill('SIGKILL');
      await new Promise((resolve) => child.on('close', resolve));
      const next = await slow.cody(['chat', 'after the crash']);
      expect(next.code, next.stderr).toBe(0);
      const kinds = (await slow.rollout(id)).map((line) => {
        const parsed = JSON.parse(line) as { type: string; payload: { type?: string; role?: string } };
        return parsed.payload.type === 'message' ? parsed.payload.role : (parsed.payload.type ?? parsed.type);
      });
      const firstUser = kinds.indexOf('user');
      const aborted = kinds.indexOf('cody_turn_aborted');
      expect(aborted).toBeGreaterThan(firstUser);
      expect(kinds.slice(firstUser + 1, aborted)).not.toContain('assistant');
      expect(kinds.indexOf('user', firstUser + 1)).toBeGreaterThan(aborted);
      // What the model got next: the unanswered message, a note that it got no reply, the new message.
      const sent = messagesOf(slow.server.modelRequests().at(-1)?.body).filter((m) => m.role !== 'system');
      expect(sent.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
      expect(textOf(sent[1])).toMatch(/No reply: this turn was interrupted/);
      expect(textOf(sent[2])).toContain('after the crash');
    } finally {
      await slow.close();
    }
  }, 60_000);

  it('7.7: after a turn that got no reply, the next request never sends two user messages in a row, on each API', async () => {
    const apis = [
      { provider: 'openai', api: 'chat', model: 'gpt-4o-mini' },
      { provider: 'openai', api: 'responses', model: 'gpt-4.1-mini' },
      { provider: 'anthropic', api: 'messages', model: 'claude-sonnet-4-6' },
      { provider: 'google', api: 'gemini', model: 'gemini-2.5-flash' },
    ];
    for (const selection of apis) {
      await harness.writeConfig({
        ...selection,
        tools: false,
        retry: { baseDelayMs: 20_000, maxDelayMs: 20_000 },
      });
      const id = (await codyInProcess(harness, ['new'])).stdout.trim();
      harness.server.enqueue({ type: 'error', status: 500 });
      const run = startCody(['chat', 'first question'], /Retrying/);
      await run.seen;
      run.child.kill('SIGINT');
      expect(await run.exited).toBe(130);
      harness.server.enqueue({ type: 'reply', text: 'an answer' });
      const next = await harness.cody(['chat', 'second question']);
      expect(next.code, next.stderr).toBe(0);
      const roles = rolesSent(harness.server.modelRequests().at(-1)?.body);
      expect(roles, `${selection.api}: ${roles.join(' ')}`).toEqual(['user', 'assistant', 'user']);
      // Resumed from disk in a new process, the same history is sent again.
      harness.server.enqueue({ type: 'reply', text: 'another answer' });
      expect((await harness.cody(['chat', 'third question'])).code).toBe(0);
      expect(rolesSent(harness.server.modelRequests().at(-1)?.body)).toEqual([
        'user',
        'assistant',
        'user',
        'assistant',
        'user',
      ]);
      expect((await harness.rollout(id)).join('\n')).not.toContain('No reply');
    }
  }, 120_000);
});

/** The conversation roles a request carries, in order, whatever the wire API (instructions left out). */
function rolesSent(body: unknown): string[] {
  const record = body as {
    messages?: Array<{ role: string }>;
    input?: Array<{ role?: string; type?: string }>;
    contents?: Array<{ role: string }>;
  };
  const roles = record.messages
    ? record.messages.map((message) => message.role)
    : record.input
      ? record.input.filter((item) => item.role !== undefined).map((item) => item.role ?? '')
      : (record.contents ?? []).map((content) => (content.role === 'model' ? 'assistant' : content.role));
  return roles.filter((role) => role !== 'system' && role !== 'developer');
}
