/**
 * Real Codex rollouts through the real binary: imported, listed, shown, resumed, and continued on each
 * of the four APIs with a request the fake server (which rejects what the real APIs reject) accepts.
 * Before each continued turn, the import and `set-provider` run in process; the turns are real processes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness, linesOfType, REPO_ROOT } from './harness.js';
import { codyInProcess } from './in-process.js';
import { historyLines } from './wire-history.js';

const ROLLOUT_DIR = join(REPO_ROOT, 'tests', 'fixtures', 'codex-rollouts');
const ROLLOUTS = readdirSync(ROLLOUT_DIR).filter((name) => name.endsWith('.jsonl'));

interface SourceCounts {
  items: number;
  calls: number;
  outputs: number;
  messages: number;
  reasoning: number;
  opaque: number;
  /** `user_message` events with no user message item of the same text (Codex Desktop records only those). */
  eventOnlyUserMessages: number;
}

/** Counts the source file's items independently of Cody's reader. */
function countSource(file: string): SourceCounts {
  const counts: SourceCounts = {
    items: 0,
    calls: 0,
    outputs: 0,
    messages: 0,
    reasoning: 0,
    opaque: 0,
    eventOnlyUserMessages: 0,
  };
  const userItemTexts = new Set<string>();
  const userEventTexts: string[] = [];
  for (const line of readFileSync(join(ROLLOUT_DIR, file), 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const parsed = JSON.parse(line) as {
      type: string;
      payload: { type?: string; role?: string; message?: string; content?: Array<{ text?: string }> };
    };
    if (
      parsed.type === 'event_msg' &&
      parsed.payload.type === 'user_message' &&
      parsed.payload.message?.trim()
    ) {
      userEventTexts.push(parsed.payload.message.trim());
    }
    if (parsed.type !== 'response_item') continue;
    counts.items += 1;
    const type = parsed.payload.type;
    if (type === 'message' && parsed.payload.role === 'user') {
      userItemTexts.add(
        (parsed.payload.content ?? [])
          .map((part) => part.text ?? '')
          .join('')
          .trim(),
      );
    }
    if (type === 'function_call' || type === 'custom_tool_call') counts.calls += 1;
    else if (type === 'function_call_output' || type === 'custom_tool_call_output') counts.outputs += 1;
    else if (type === 'message') counts.messages += 1;
    else if (type === 'reasoning') counts.reasoning += 1;
    else counts.opaque += 1;
  }
  counts.eventOnlyUserMessages = userEventTexts.filter((text) => !userItemTexts.has(text)).length;
  return counts;
}

const APIS = [
  { api: 'openai-responses', args: ['openai', '--api', 'responses', '--model', 'gpt-5'] },
  { api: 'openai-chat', args: ['openai', '--api', 'chat'] },
  { api: 'anthropic-messages', args: ['anthropic'] },
  { api: 'gemini', args: ['google'] },
] as const;

describe('importing real Codex rollouts', () => {
  let harness: Harness;
  beforeEach(async () => {
    harness = await createHarness();
  });
  afterEach(async () => {
    await harness.close();
  });

  it('finds both shared rollouts, one of which records user messages only as events', () => {
    expect(ROLLOUTS).toHaveLength(2);
    expect(ROLLOUTS.map(countSource).map((counts) => counts.eventOnlyUserMessages)).toContain(3);
  });

  for (const file of ROLLOUTS) {
    it(`imports ${file.slice(0, 40)}… with every item, and lists, shows and resumes it`, async () => {
      const imported = await harness.cody(['import', join(ROLLOUT_DIR, file)]);
      expect(imported.code, imported.stderr).toBe(0);
      const id = imported.stdout.trim();
      expect(id).toMatch(/^[0-9a-f-]{36}$/);

      const source = countSource(file);
      const items = linesOfType(await harness.rollout(id), 'response_item')
        .map((line) => line.payload)
        .filter((item) => item.type !== 'cody_turn_complete');
      // Cody's own instructions come first; Codex's items follow, with the event-only user messages.
      expect(items[0]).toMatchObject({ type: 'message', role: 'system' });
      expect(JSON.stringify(items[0])).toContain('You are Cody');
      expect(items).toHaveLength(1 + source.items + source.eventOnlyUserMessages);
      const types = (type: string): number => items.filter((item) => item.type === type).length;
      expect(types('function_call')).toBe(source.calls);
      expect(types('function_call_output')).toBe(source.outputs);
      expect(types('message')).toBe(1 + source.messages + source.eventOnlyUserMessages);
      expect(types('reasoning')).toBe(source.reasoning);
      // Unknown kinds (web_search_call) are kept verbatim, not dropped.
      expect(
        items.length -
          types('function_call') -
          types('function_call_output') -
          types('message') -
          types('reasoning'),
      ).toBe(source.opaque);
      for (const reasoning of items.filter((item) => item.type === 'reasoning')) {
        expect(reasoning.origin).toMatchObject({ api: 'openai-responses', foreign: true });
      }

      const listed = JSON.parse((await harness.cody(['list', '--json', '--all'])).stdout) as Array<
        Record<string, unknown>
      >;
      expect(listed).toHaveLength(1);
      expect(listed[0]).toMatchObject({
        id,
        provider: 'openai',
        api: 'openai-responses',
        messageCount: expect.any(Number),
      });

      const shown = await harness.cody(['show', id]);
      expect(shown.code).toBe(0);
      expect(shown.stdout).toMatch(/you › /);

      const resumed = await harness.cody(['resume', id]);
      expect(resumed.code).toBe(0);
      expect(resumed.stdout).toContain(`✓ Resumed conversation: ${id}`);
    });

    it(`continues ${file.slice(0, 40)}… on each of the four APIs`, async () => {
      // Generous windows: the fake provider's invented usage is rough, and this is not a compaction test.
      const big = { contextWindow: 10_000_000, maxOutputTokens: 8_192 };
      await harness.writeConfig({
        models: { 'gpt-5': big, 'gpt-4.1-mini': big, 'claude-sonnet-4-6': big, 'gemini-2.5-flash': big },
      });
      const id = (await codyInProcess(harness, ['import', join(ROLLOUT_DIR, file)])).stdout.trim();
      for (const { api, args } of APIS) {
        expect((await codyInProcess(harness, ['set-provider', ...args])).code).toBe(0);
        const result = await harness.cody(['chat', `continue on ${api}`]);
        expect(result.code, result.stderr).toBe(0);
        const request = harness.server.modelRequests().at(-1);
        if (!request) throw new Error('no request');
        expect(request.api).toBe(api);
        expect(request.rejected).toBeUndefined();
        const lines = historyLines(request);
        expect(lines.at(-1)).toBe(`user: continue on ${api}`);
        expect(lines.length).toBeGreaterThan(3);
        const body = JSON.stringify(request.body);
        // The imported tool calls travel in each API's own shape.
        const marker = {
          'openai-responses': '"function_call_output"',
          'openai-chat': '"role":"tool"',
          'anthropic-messages': '"tool_result"',
          gemini: '"functionResponse"',
        }[api];
        expect(body).toContain(marker);
        // Cody's instructions, not Codex's harness instructions; Codex's reasoning (encrypted for another
        // account) is never sent back.
        expect(body).toContain('You are Cody');
        expect(body).not.toContain('<permissions instructions>');
        expect(body).not.toContain('"type":"reasoning"');
        // apply_patch (a Codex custom tool call) arrives as an ordinary function call with an input argument.
        if (file.includes('11-26-55')) expect(body).toContain('apply_patch');
      }
      expect(linesOfType(await harness.rollout(id), 'turn_context').length).toBeGreaterThanOrEqual(4);
    });
  }
});
