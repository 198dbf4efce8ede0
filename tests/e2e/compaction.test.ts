/**
 * Compaction end to end: a model with a 4,000-token window driven through 60 turns, exact resume after
 * compaction (a live in-process session and a fresh process send identical requests), manual
 * compaction of an already-overflowing conversation, and the 3-per-turn cap. Long conversations are
 * built through the library (the engine `cody chat` runs, see library-turns.ts), then read, continued
 * and compacted by the binary; the CLI's own automatic-compaction line is checked in
 * turn-defects.test.ts (7.3), whose turns run through the binary.
 */
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { COMPACTION_PROMPT } from '../../src/core/compact/index.js';
import { configSchema } from '../../src/core/config/config-schema.js';
import { ConversationManager } from '../../src/core/store/conversation-manager.js';
import { resolveCodyPaths } from '../../src/core/config/paths.js';
import { Session } from '../../src/core/conversation/session.js';
import { createToolRuntime } from '../../src/core/tools/runtime.js';
import type { RecordedRequest } from '../fake-provider/types.js';
import { createHarness, type Harness, linesOfType } from './harness.js';
import { libraryTurns } from './library-turns.js';

const WINDOW = 4_000;
const TINY_CONFIG = {
  provider: 'openai',
  api: 'chat',
  model: 'tiny-model',
  models: { 'tiny-model': { contextWindow: WINDOW, maxOutputTokens: 500 } },
  retry: { baseDelayMs: 5 },
};
const COMPACTION_MARKER = COMPACTION_PROMPT.slice(0, 40);
const FILLER = 'The quick brown fox jumps over the lazy dog while the compiler reports seventeen warnings. ';

/** What the model is asked to read: every message's content plus the tool definitions. */
function promptTokens(request: RecordedRequest): number {
  const body = request.body as {
    messages: Array<{ content: unknown; tool_calls?: unknown }>;
    tools?: unknown;
  };
  let total = body.tools ? countTokens(JSON.stringify(body.tools)) : 0;
  for (const message of body.messages) {
    total +=
      4 +
      countTokens(
        typeof message.content === 'string' ? message.content : JSON.stringify(message.content ?? ''),
      );
    if (message.tool_calls) total += countTokens(JSON.stringify(message.tool_calls));
  }
  return total;
}

/** A summary request ends with the compaction prompt as its last user message. */
function isSummaryRequest(request: RecordedRequest): boolean {
  const messages = (request.body as { messages?: Array<{ role: string; content: unknown }> }).messages ?? [];
  const last = messages.at(-1);
  return (
    last?.role === 'user' && typeof last.content === 'string' && last.content.startsWith(COMPACTION_MARKER)
  );
}

describe('compaction end to end', () => {
  let harness: Harness;
  beforeEach(async () => {
    harness = await createHarness();
    await harness.writeConfig(TINY_CONFIG);
  });
  afterEach(async () => {
    await harness.close();
  });

  it('keeps a 60-turn conversation inside a 4,000-token window, then continues it from the binary', async () => {
    const id = (await harness.cody(['new'])).stdout.trim();
    const turns = Array.from({ length: 60 }, (_, index) => `turn ${index + 1}: ${FILLER.repeat(2)}`);
    const { events } = await libraryTurns(harness, turns, id);
    expect(events.filter((event) => event.type === 'turn-complete')).toHaveLength(60);
    const automatic = events.filter((event) => event.type === 'compaction-started');
    expect(automatic.length).toBeGreaterThan(0);
    for (const event of automatic) expect(event).toMatchObject({ trigger: 'auto' });

    const requests = harness.server.modelRequests('openai-chat');
    const summaries = requests.filter(isSummaryRequest);
    expect(summaries.length).toBeGreaterThan(0);
    for (const request of requests) expect(promptTokens(request)).toBeLessThanOrEqual(WINDOW);
    // The summary request defines the conversation's tools (its history may call them) but forbids calling them.
    for (const request of summaries) {
      const body = request.body as { tools?: unknown[]; tool_choice?: unknown };
      expect(body.tool_choice).toBe('none');
      expect((body.tools ?? []).length).toBeGreaterThan(0);
    }

    const lines = await harness.rollout(id);
    const compacted = linesOfType(lines, 'compacted');
    expect(compacted.length).toBe(summaries.length);
    expect(automatic.length).toBe(summaries.length);
    for (const line of compacted) expect(Array.isArray(line.payload.replacement_history)).toBe(true);

    const final = await harness.cody(['chat', 'still there?']);
    expect(final.code).toBe(0);
    expect(final.stdout).toBe('echo: still there?\n');
    const status = await harness.cody(['status', '--json']);
    const parsed = JSON.parse(status.stdout) as {
      compactions: number;
      contextTokens: number;
      contextWindow: number;
    };
    expect(parsed.compactions).toBe(summaries.length);
    expect(parsed.contextWindow).toBe(WINDOW);
    expect(parsed.contextTokens).toBeLessThan(WINDOW);
  }, 240_000);

  it('sends exactly the same history from a fresh process as the live session would', async () => {
    const id = (await harness.cody(['new'])).stdout.trim();
    const paths = resolveCodyPaths({ CODY_HOME: harness.env.CODY_HOME });
    const manager = new ConversationManager(paths, { cliVersion: 'test' });
    const live = await Session.open({
      manager,
      conversationId: id,
      config: configSchema.parse(TINY_CONFIG),
      env: harness.env,
      cwd: harness.home,
      // The same tools `cody chat` offers, so both sides account for the same request overhead.
      tools: createToolRuntime({ cwd: harness.home, policy: 'ask' }),
    });
    for (let turn = 1; turn <= 25; turn += 1) {
      for await (const event of live.submit(`live turn ${turn}: ${FILLER.repeat(2)}`)) void event;
    }
    expect(harness.server.modelRequests().some(isSummaryRequest)).toBe(true);

    // Snapshot the rollout as it is now into a second home, then send the same message from both.
    const otherHome = join(harness.home, 'other-cody');
    await mkdir(join(otherHome, 'conversations'), { recursive: true, mode: 0o700 });
    await copyFile(
      join(paths.conversationsDir, `${id}.jsonl`),
      join(otherHome, 'conversations', `${id}.jsonl`),
    );
    await copyFile(paths.configFile, join(otherHome, 'config.json'));

    for await (const event of live.submit('the next message')) void event;
    const fromLive = harness.server.modelRequests().at(-1);

    const resumed = await harness.cody(['resume', id], { env: { CODY_HOME: otherHome } });
    expect(resumed.code).toBe(0);
    const fresh = await harness.cody(['chat', 'the next message'], { env: { CODY_HOME: otherHome } });
    expect(fresh.code, fresh.stderr).toBe(0);
    const fromFresh = harness.server.modelRequests().at(-1);
    expect(fromFresh).not.toBe(fromLive);
    expect((fromFresh?.body as { messages: unknown }).messages).toEqual(
      (fromLive?.body as { messages: unknown }).messages,
    );
  }, 120_000);

  it('compacts on request even when the window is already overflowing', async () => {
    await harness.writeConfig({ ...TINY_CONFIG, compact: { auto: false } });
    const id = (await harness.cody(['new'])).stdout.trim();
    const turns = Array.from({ length: 30 }, (_, index) => `overflow ${index + 1}: ${FILLER.repeat(3)}`);
    await libraryTurns(harness, turns, id);
    const before = JSON.parse((await harness.cody(['status', '--json'])).stdout) as { contextTokens: number };
    expect(before.contextTokens).toBeGreaterThan(WINDOW);

    const compacted = await harness.cody(['compact', '--focus', 'the overflow numbers']);
    expect(compacted.code, compacted.stderr).toBe(0);
    expect(compacted.stdout).toMatch(/✓ Compacted/);
    const summaryRequest = harness.server.modelRequests().at(-1);
    if (!summaryRequest) throw new Error('no summary request');
    expect(isSummaryRequest(summaryRequest)).toBe(true);
    expect(JSON.stringify(summaryRequest.body)).toContain(
      'Pay particular attention to: the overflow numbers',
    );
    expect(promptTokens(summaryRequest)).toBeLessThanOrEqual(WINDOW);
    const after = JSON.parse((await harness.cody(['status', '--json'])).stdout) as {
      contextTokens: number;
      compactions: number;
    };
    expect(after.contextTokens).toBeLessThan(WINDOW * 0.8);
    expect(after.compactions).toBe(1);
    expect(linesOfType(await harness.rollout(id), 'compacted')).toHaveLength(1);
    const summary = await harness.cody(['show', '--summary']);
    expect(summary.stdout.trim().length).toBeGreaterThan(0);
  }, 120_000);

  it('stops a runaway turn after 3 automatic compactions instead of looping', async () => {
    const id = (await harness.cody(['new'])).stdout.trim();
    const warmUps = [1, 2, 3, 4].map((turn) => `warm-up ${turn}: ${FILLER}`);
    await libraryTurns(harness, warmUps, id);
    const overflow = { type: 'error' as const, status: 400, contextOverflow: true };
    const summary = { type: 'reply' as const, text: 'Summary: the user is warming up.' };
    harness.server.enqueue(overflow, summary, overflow, summary, overflow, summary, overflow, summary);
    const before = harness.server.modelRequests().length;
    const result = await harness.cody(['chat', 'this turn always overflows']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/3 compactions/);
    const during = harness.server.modelRequests().slice(before);
    expect(during.filter(isSummaryRequest)).toHaveLength(3);
    expect(during.filter((request) => !isSummaryRequest(request))).toHaveLength(4);
  }, 60_000);
});
