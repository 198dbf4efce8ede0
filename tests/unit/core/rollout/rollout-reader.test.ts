/** Resume reading on real files: history replay, compactions (fast path and legacy), and bad files. */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SUMMARY_PREFIX } from '../../../../src/core/rollout/summary-prefix.js';
import {
  CorruptRolloutError,
  EmptyConversationError,
  UnknownConversationError,
} from '../../../../src/core/errors.js';
import { readRolloutForResume } from '../../../../src/core/rollout/reader.js';
import type { ResponseItem } from '../../../../src/protocol/index.js';
import {
  assistantMessage,
  itemLine,
  line,
  makeTempDir,
  metaLine,
  removeTempDir,
  systemMessage,
  TEST_ID,
  testMeta,
  userMessage,
} from '../mocked-service.js';

const call: ResponseItem = { type: 'function_call', name: 'shell', arguments: '{"cmd":"ls"}', call_id: 'c1' };
const output: ResponseItem = { type: 'function_call_output', call_id: 'c1', output: 'a.txt' };

function tokenCount(input: number, output: number): string {
  return line('event_msg', {
    type: 'token_count',
    info: {
      last_token_usage: {
        input_tokens: input,
        cached_input_tokens: 0,
        output_tokens: output,
        reasoning_output_tokens: 0,
        total_tokens: input + output,
      },
      model_context_window: 128_000,
    },
  });
}

describe('readRolloutForResume', () => {
  let directory: string;
  let filePath: string;
  beforeEach(async () => {
    directory = await makeTempDir();
    filePath = join(directory, `${TEST_ID}.jsonl`);
  });
  afterEach(async () => {
    await removeTempDir(directory);
  });

  const write = (...lines: string[]): Promise<void> => writeFile(filePath, lines.join(''));

  it('rebuilds the history, the last turn context, token usage and counts', async () => {
    await write(
      metaLine(),
      itemLine(systemMessage('be brief')),
      line('turn_context', { turn_id: 't1', provider: 'openai', api: 'openai-chat', model: 'gpt-4.1-mini' }),
      itemLine(userMessage('list files')),
      itemLine(call),
      itemLine(output),
      tokenCount(100, 20),
      itemLine(assistantMessage('a.txt')),
      line('event_msg', {
        type: 'turn_complete',
        turn_id: 't1',
        message_count: 2,
        first_user_message: 'list files',
      }),
    );
    const resumed = await readRolloutForResume(filePath);
    expect(resumed.meta).toEqual(testMeta());
    expect(resumed.history).toEqual([
      systemMessage('be brief'),
      userMessage('list files'),
      call,
      output,
      assistantMessage('a.txt'),
    ]);
    expect(resumed.lastTurnContext).toEqual({
      turn_id: 't1',
      provider: 'openai',
      api: 'openai-chat',
      model: 'gpt-4.1-mini',
    });
    expect(resumed.lastTokenCount).toEqual({
      usage: {
        inputTokens: 100,
        cachedInputTokens: 0,
        outputTokens: 20,
        reasoningTokens: 0,
        totalTokens: 120,
      },
      historyLengthAtReport: 4,
    });
    expect(resumed).toMatchObject({
      messageCount: 2,
      firstUserMessage: 'list files',
      compactionCount: 0,
      lineCount: 9,
    });
    expect(resumed.warnings).toEqual([]);
    expect(resumed.tornTail).toBe(false);
  });

  it('accepts unknown fields, line types, event kinds and item types, and Codex variants', async () => {
    const webSearch = {
      type: 'web_search_call',
      status: 'completed',
      action: { type: 'search', query: 'q' },
    };
    await write(
      metaLine().replace('"payload":{', '"payload":{"future_field":1,'),
      line('future_line_type', { anything: true }),
      line('event_msg', { type: 'future_event', value: 3 }),
      itemLine({ ...userMessage('hi'), status: 'completed' } as ResponseItem),
      line('response_item', webSearch),
      line('response_item', {
        type: 'reasoning',
        id: 'rs_1',
        summary: [],
        content: null,
        encrypted_content: 'gAAA',
      }),
      line('event_msg', { type: 'token_count', info: null, rate_limits: {} }),
    );
    const resumed = await readRolloutForResume(filePath);
    expect(resumed.history).toEqual([
      userMessage('hi'),
      { type: 'opaque', raw: webSearch },
      { type: 'reasoning', id: 'rs_1', summary: [], content: null, encrypted_content: 'gAAA' },
    ]);
    expect(resumed.lastTokenCount).toBeUndefined();
  });

  it('replaces the history at a compacted line, and token usage reported before it no longer counts', async () => {
    const summary = userMessage(`${SUMMARY_PREFIX}\nwe listed files`);
    await write(
      metaLine(),
      itemLine(userMessage('old question')),
      itemLine(assistantMessage('old answer')),
      tokenCount(5000, 100),
      line('compacted', {
        message: 'we listed files',
        replacement_history: [userMessage('old question'), summary],
        compaction_count: 1,
      }),
      itemLine(userMessage('new question')),
    );
    const resumed = await readRolloutForResume(filePath);
    expect(resumed.history).toEqual([userMessage('old question'), summary, userMessage('new question')]);
    expect(resumed.compactionCount).toBe(1);
    expect(resumed.lastTokenCount).toBeUndefined();
  });

  it('starts from the last compacted line: a corrupt line before it is never parsed', async () => {
    // Documented behaviour: lines before the newest compaction are no longer live history, so resume
    // does not read them (cody show, which reads everything, still reports the bad line).
    await write(
      metaLine(),
      itemLine(userMessage('first')),
      '{"this line is": corrupt\n',
      line('compacted', { message: 's1', replacement_history: [userMessage('first')], compaction_count: 1 }),
      itemLine(userMessage('second')),
      line('compacted', { message: 's2', replacement_history: [userMessage('second')], compaction_count: 2 }),
      itemLine(userMessage('third')),
      tokenCount(10, 1),
    );
    const resumed = await readRolloutForResume(filePath);
    expect(resumed.history).toEqual([userMessage('second'), userMessage('third')]);
    expect(resumed.compactionCount).toBe(2);
    expect(resumed.lastTokenCount?.historyLengthAtReport).toBe(2);
    expect(resumed.lineCount).toBe(4); // meta, the compacted line, one item, one event
  });

  it('names the right line for a corrupt line after the last compaction', async () => {
    await write(
      metaLine(),
      itemLine(userMessage('first')),
      line('compacted', { message: 's', replacement_history: [userMessage('first')] }),
      itemLine(userMessage('second')),
      'not json at all\n',
      itemLine(userMessage('third')),
    );
    const error = await readRolloutForResume(filePath).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CorruptRolloutError);
    expect(error).toMatchObject({ file: filePath, line: 5 });
    expect((error as Error).message).toContain(`${filePath}:5`);
  });

  it('reads a file without compaction across many chunks, naming a corrupt line deep in it', async () => {
    // ~3 MiB of turns: the backward reader crosses chunk boundaries inside lines and skips a blank line.
    const turns: string[] = [];
    for (let turn = 0; turn < 1500; turn += 1) {
      turns.push(
        itemLine(userMessage(`q${turn} ${'y'.repeat(1000)}`)),
        itemLine(assistantMessage(`a${turn}`)),
      );
    }
    await write(metaLine(), ...turns.slice(0, 1000), '\n', ...turns.slice(1000));
    const resumed = await readRolloutForResume(filePath);
    expect(resumed.history).toHaveLength(3000);
    expect(resumed.history[0]).toEqual(userMessage(`q0 ${'y'.repeat(1000)}`));
    expect(resumed.history.at(-1)).toEqual(assistantMessage('a1499'));
    await write(metaLine(), ...turns.slice(0, 700), '{"timestamp": broken\n', ...turns.slice(700));
    // Line 1 is the metadata, then 700 lines: the broken one is line 702.
    await expect(readRolloutForResume(filePath)).rejects.toMatchObject({ line: 702 });
  });

  it('reports the first corrupt line of the file, as a forward read would', async () => {
    await write(
      metaLine(),
      itemLine(userMessage('one')),
      'not json\n',
      itemLine(userMessage('two')),
      '{"x":1}\n',
    );
    await expect(readRolloutForResume(filePath)).rejects.toMatchObject({ line: 3 });
    await write('{"not json\n', '{"x":1}\n');
    const error = await readRolloutForResume(filePath).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ line: 1 });
    expect((error as Error).message).toMatch(/not valid JSON/);
  });

  it('uses the last usable turn context, token count and turn_complete, and drops counts voided by a compaction', async () => {
    const context = (model?: string): string =>
      line('turn_context', { provider: 'openai', api: 'openai-chat', ...(model ? { model } : {}) });
    const complete = (payload: Record<string, unknown>): string =>
      line('event_msg', { type: 'turn_complete', turn_id: 't', ...payload });
    await write(
      metaLine(),
      context('gpt-old'),
      itemLine(userMessage('one')),
      tokenCount(10, 1),
      complete({ message_count: 2, first_user_message: 'one' }),
      line('compacted', { message: 's', replacement_history: [userMessage('one')] }),
      context('gpt-new'),
      context(), // no model: unusable, the one before it counts
      line('event_msg', { type: 'token_count', info: null }),
      complete({ message_count: 'many' }), // malformed: skipped
      complete({ message_count: 4 }),
    );
    const resumed = await readRolloutForResume(filePath);
    expect(resumed.lastTurnContext?.model).toBe('gpt-new');
    expect(resumed.lastTokenCount).toBeUndefined();
    expect(resumed.messageCount).toBe(4);
    expect(resumed.firstUserMessage).toBeUndefined();
    await write(
      metaLine(),
      itemLine(userMessage('one')),
      tokenCount(10, 1),
      complete({ message_count: 2, first_user_message: 'one' }),
      itemLine(userMessage('two')),
      tokenCount(20, 2),
      line('event_msg', { type: 'token_count', info: null }),
      complete({ message_count: 4 }),
    );
    const later = await readRolloutForResume(filePath);
    expect(later.lastTokenCount).toEqual({
      usage: { inputTokens: 20, cachedInputTokens: 0, outputTokens: 2, reasoningTokens: 0, totalTokens: 22 },
      historyLengthAtReport: 2,
    });
    expect(later.messageCount).toBe(4);
    expect(later.firstUserMessage).toBe('one');
  });

  it('finds a compacted line that spans several backward-read chunks', async () => {
    const big = userMessage('x'.repeat(3 * 1024 * 1024));
    await write(
      metaLine(),
      itemLine(userMessage('before')),
      line('compacted', { message: 's', replacement_history: [big], compaction_count: 1 }),
      itemLine(assistantMessage('after')),
    );
    const resumed = await readRolloutForResume(filePath);
    expect(resumed.history).toEqual([big, assistantMessage('after')]);
    expect(resumed.lineCount).toBe(3);
  });

  it('reads lines longer than a chunk among short ones, multi-byte text across every boundary', async () => {
    // Each long line outgrows the read buffer, and the short lines around it are carried across chunks
    // after it has grown: every message must come back byte for byte, in order.
    const messages: ResponseItem[] = [];
    for (let index = 0; index < 4; index += 1) {
      messages.push(userMessage(`${index} ${'é✓'.repeat(300_000 + index * 123_457)}`));
      for (let short = 0; short < 400; short += 1)
        messages.push(assistantMessage(`${index}.${short} ${'ü'.repeat(1_000 + short)}`));
    }
    await write(metaLine(), ...messages.map((message) => itemLine(message)));
    const resumed = await readRolloutForResume(filePath);
    expect(resumed.history).toEqual(messages);
    expect(resumed.lineCount).toBe(messages.length + 1);
  });

  it('rebuilds a legacy compacted line (no replacement_history) from the initial context and user messages', async () => {
    const agents = userMessage('# AGENTS.md instructions for /repo\n\nbe careful');
    await write(
      metaLine(),
      itemLine(systemMessage('system prompt')),
      itemLine(agents),
      itemLine(userMessage('question one')),
      itemLine(assistantMessage('answer one')),
      itemLine(userMessage(`${SUMMARY_PREFIX}\nan earlier summary`)),
      itemLine(userMessage('question two')),
      itemLine(call),
      itemLine(output),
      line('compacted', { message: 'what happened so far' }),
      itemLine(userMessage('question three')),
    );
    const resumed = await readRolloutForResume(filePath);
    expect(resumed.history).toEqual([
      systemMessage('system prompt'),
      agents,
      userMessage('question one'),
      userMessage('question two'),
      userMessage(`${SUMMARY_PREFIX}\nwhat happened so far`),
      userMessage('question three'),
    ]);
    expect(resumed.compactionCount).toBe(1);
  });

  it('tolerates a torn last line with a warning', async () => {
    await write(metaLine(), itemLine(userMessage('kept')), '{"timestamp":"2026-01-0');
    const resumed = await readRolloutForResume(filePath);
    expect(resumed.history).toEqual([userMessage('kept')]);
    expect(resumed.tornTail).toBe(true);
    expect(resumed.warnings).toEqual([
      `${filePath}: the last line is incomplete (interrupted write); it will be set aside on the next save.`,
    ]);
  });

  it('reports a corrupt line that is not the last one as file:line', async () => {
    await write(
      metaLine(),
      itemLine(userMessage('one')),
      '{"timestamp":"2026-01-0\n',
      itemLine(userMessage('two')),
    );
    await expect(readRolloutForResume(filePath)).rejects.toThrow(
      `Corrupt rollout ${filePath}:3: not valid JSON`,
    );
  });

  it('reports an unterminated last line that is valid JSON but not a rollout line', async () => {
    await write(metaLine(), '[1,2,3]');
    await expect(readRolloutForResume(filePath)).rejects.toMatchObject({ line: 2 });
  });

  it('rejects a file whose first line is not session_meta (line 1)', async () => {
    await write(itemLine(userMessage('no meta')), metaLine());
    const error = await readRolloutForResume(filePath).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CorruptRolloutError);
    expect(error).toMatchObject({ line: 1 });
  });

  it('rejects a malformed compacted line with its line number', async () => {
    await write(metaLine(), line('compacted', { message: 'x', replacement_history: 'not a list' }));
    await expect(readRolloutForResume(filePath)).rejects.toMatchObject({ line: 2 });
  });

  for (const [name, content] of [
    ['an empty file', ''],
    ['a whitespace-only file', '\n  \n'],
    ['a file holding only a torn first line', '{"timestamp":"2026'],
  ] as const) {
    it(`says ${name} has no turns`, async () => {
      await writeFile(filePath, content);
      const error = await readRolloutForResume(filePath).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(EmptyConversationError);
      expect((error as Error).message).toBe(`Conversation ${TEST_ID} has no turns.`);
    });
  }

  it('reports a missing file as an unknown conversation', async () => {
    await expect(readRolloutForResume(filePath)).rejects.toThrow(UnknownConversationError);
  });

  it('sees a turn left open across a compaction inside it (killed after the compaction was written)', async () => {
    const context = (turn: string) =>
      line('turn_context', {
        turn_id: turn,
        provider: 'openai',
        api: 'openai-chat',
        model: 'gpt-4.1-mini',
        context_window: 128_000,
      });
    const huge = 'x'.repeat(200_000); // longer than any marker line: skipped, not parsed
    const compacted = line('compacted', {
      message: 'summary',
      replacement_history: [userMessage('kept'), userMessage(`${SUMMARY_PREFIX} s`), userMessage(huge)],
      compaction_count: 1,
    });
    const head = [
      metaLine(),
      context('t1'),
      itemLine(userMessage('first')),
      itemLine(assistantMessage('answer')),
      line('response_item', { type: 'cody_turn_complete', turn_id: 't1' }),
      context('t2'),
      itemLine(userMessage(huge)),
    ];
    await write(...head, compacted);
    const open = await readRolloutForResume(filePath);
    expect(open.openTurnId).toBe('t2');
    expect(open.history.at(-1)).toEqual(userMessage(huge));

    // The same compaction after a finished turn: nothing is open.
    await write(...head, line('response_item', { type: 'cody_turn_aborted', reason: 'x' }), compacted);
    expect((await readRolloutForResume(filePath)).openTurnId).toBeUndefined();
    // And a turn that ended after the compaction is closed.
    await write(...head, compacted, line('response_item', { type: 'cody_turn_complete', turn_id: 't2' }));
    expect((await readRolloutForResume(filePath)).openTurnId).toBeUndefined();
  });
});
