import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ResponseItem } from '../../../../src/protocol/index.js';
import {
  autoCompactLimit,
  COMPACTION_PROMPT,
  SUMMARY_PREFIX,
  SUMMARY_UNAVAILABLE,
  NOTHING_TO_SUMMARISE,
  summaryMessage,
  summaryMaxOutputTokens,
  type CompactionOutcome,
  type CompactionProgress,
} from '../../../../src/core/compact/index.js';
import type { RetryPolicy } from '../../../../src/core/config/retry.js';
import { compactWith, type CompactWithOptions } from './compact-with.js';
import { heuristicEstimator, TokenAccountant } from '../../../../src/core/tokens/index.js';
import {
  assistant,
  call,
  developer,
  ghost,
  output,
  system,
  textOf,
  user,
  wordEstimator,
  words,
} from './history-builders.js';
import { providerError, ScriptedClient, type ScriptedResponse } from './scripted-client.js';

type Options = CompactWithOptions;

/** Retries without waiting, so the suite stays fast; the backoff itself has its own test. */
const NO_WAIT: RetryPolicy = { maxRetries: 5, baseDelayMs: 0, maxDelayMs: 0 };

const s = system('You are Cody.');
const d = developer('Work in /repo.');
const conversation: ResponseItem[] = [
  s,
  d,
  user('Add retries to the fetch helper.'),
  assistant('Looking at src/fetch.ts.'),
  call('c1', 'read_file', '{"path":"src/fetch.ts"}'),
  output('c1', words(300, 'src')),
  ghost('g1'),
  user('Use exponential backoff, at most five attempts.'),
  assistant('Done; tests pass.'),
  ghost('g2'),
];

interface Run {
  outcome: CompactionOutcome;
  client: ScriptedClient;
  progress: CompactionProgress[];
}

async function run(script: ScriptedResponse[], overrides: Partial<Options> = {}): Promise<Run> {
  const client = new ScriptedClient(script);
  const progress: CompactionProgress[] = [];
  const outcome = await compactWith({
    history: conversation,
    client,
    estimator: wordEstimator(),
    contextWindow: 100_000,
    autoCompactLimit: 80_000,
    retryPolicy: NO_WAIT,
    onProgress: (event) => progress.push(event),
    ...overrides,
  });
  return { outcome, client, progress };
}

function compacted(outcome: CompactionOutcome): Extract<CompactionOutcome, { status: 'compacted' }> {
  if (outcome.status !== 'compacted') throw new Error(`expected compacted, got ${JSON.stringify(outcome)}`);
  return outcome;
}

const SUMMARY = 'Goal: retries in src/fetch.ts. Done: backoff added.';

describe('when to compact', () => {
  const limits = { contextWindow: 128_000, maxOutputTokens: 16_384 };

  it('does not compact under the threshold', () => {
    const accountant = new TokenAccountant(heuristicEstimator());
    const history = [s, user('hello'), assistant('hi')];
    accountant.recordUsage({ inputTokens: 60_000, outputTokens: 2_000 }, history.length);
    history.push(user('one more question'));
    expect(accountant.estimateHistory(history)).toBeLessThan(autoCompactLimit(limits));
  });

  it('compacts over it, and the summary request reaches the model with no tools', async () => {
    const accountant = new TokenAccountant(heuristicEstimator());
    accountant.recordUsage({ inputTokens: 101_000, outputTokens: 2_000 }, conversation.length);
    expect(accountant.estimateHistory(conversation)).toBeGreaterThanOrEqual(autoCompactLimit(limits));

    const { outcome, client } = await run([{ text: SUMMARY }]);
    expect(outcome.status).toBe('compacted');
    expect(client.requests).toHaveLength(1);
    const request = client.requests[0];
    expect(request?.tools).toEqual([]);
    expect(textOf(request?.items.at(-1))).toBe(COMPACTION_PROMPT);
    expect(request?.items.at(-1)).toMatchObject({ role: 'user' });
    expect(request?.items.some((item) => item.type === 'ghost_snapshot')).toBe(false);
    expect(request?.items.slice(0, 6)).toEqual(conversation.slice(0, 6));
    expect(request?.maxOutputTokens).toBe(summaryMaxOutputTokens(100_000));
  });
});

describe('compactHistory', () => {
  it('rebuilds the history: instructions, recent user messages, the summary, every ghost snapshot', async () => {
    const outcome = compacted((await run([{ text: `  ${SUMMARY}\n` }])).outcome);
    expect(outcome.summary).toBe(SUMMARY);
    expect(outcome.summaryFailed).toBe(false);
    expect(outcome.trimmedItems).toBe(0);
    expect(outcome.replacementHistory).toEqual([
      s,
      d,
      conversation[2],
      conversation[7],
      summaryMessage(SUMMARY),
      ghost('g1'),
      ghost('g2'),
    ]);
    expect(textOf(outcome.replacementHistory[4])).toBe(`${SUMMARY_PREFIX}\n${SUMMARY}`);
    expect(outcome.tokensAfter).toBeLessThan(outcome.tokensBefore);
  });

  it('keeps only the most recent user messages within the budget', async () => {
    const history = [
      s,
      user(words(40, 'old')),
      assistant('ok'),
      user(words(40, 'mid')),
      user(words(40, 'new')),
    ];
    // limit 400 → budget 100: the newest (44) and the middle one (44) fit whole, the oldest not at all.
    const outcome = compacted((await run([{ text: SUMMARY }], { history, autoCompactLimit: 400 })).outcome);
    const kept = outcome.replacementHistory.filter(
      (item) => item.type === 'message' && item.role === 'user' && !textOf(item).startsWith(SUMMARY_PREFIX),
    );
    expect(kept.map(textOf)).toEqual([words(40, 'mid'), words(40, 'new')]);
  });

  it('truncates a long kept message in the middle', async () => {
    const history = [s, user(words(5_000, 'long')), assistant('ok'), user('latest')];
    const outcome = compacted((await run([{ text: SUMMARY }], { history, autoCompactLimit: 4_000 })).outcome);
    const truncated = textOf(outcome.replacementHistory[1]);
    expect(truncated).toMatch(/^long0 long1 .*…\d+ tokens truncated….* long4998 long4999$/s);
    expect(wordEstimator().countText(truncated)).toBeLessThan(1_000);
    expect(textOf(outcome.replacementHistory[2])).toBe('latest');
  });

  it('excludes earlier summaries from the kept messages and summarises them with the rest', async () => {
    const earlier = summaryMessage('first compaction notes');
    const history = [s, earlier, user('after the first compaction'), assistant('ok')];
    const { outcome, client } = await run([{ text: 'second notes' }], { history });
    const replacement = compacted(outcome).replacementHistory;
    expect(replacement.filter((item) => textOf(item).startsWith(SUMMARY_PREFIX)).map(textOf)).toEqual([
      `${SUMMARY_PREFIX}\nsecond notes`,
    ]);
    expect(client.requests[0]?.items).toContainEqual(earlier);
  });

  it('passes the focus to the model', async () => {
    const { client } = await run([{ text: SUMMARY }], { focus: 'the backoff constants' });
    expect(textOf(client.requests[0]?.items.at(-1))).toBe(
      `${COMPACTION_PROMPT}\nPay particular attention to: the backoff constants`,
    );
  });

  it.each<[string, ScriptedResponse]>([
    ['text deltas', { text: SUMMARY }],
    ['a completed assistant message only', { text: SUMMARY, asItem: 'only' }],
    ['both (the completed message wins, not doubled)', { text: SUMMARY, asItem: true }],
  ])('collects the summary from %s', async (_name, response) => {
    expect(compacted((await run([response])).outcome).summary).toBe(SUMMARY);
  });

  it.each<[string, ResponseItem[]]>([
    ['an empty history', []],
    ['instructions only', [s, d]],
    ['instructions and undo points only', [s, ghost('g')]],
  ])('is a noop for %s, and asks the model nothing', async (_name, history) => {
    const { outcome, client } = await run([], { history });
    expect(outcome.status).toBe('noop');
    expect(client.requests).toHaveLength(0);
  });

  it('compacts a single long item, keeping it truncated', async () => {
    const history = [user(words(1_000))];
    const outcome = compacted((await run([{ text: 'short' }], { history, autoCompactLimit: 400 })).outcome);
    expect(outcome.replacementHistory).toHaveLength(2);
    expect(textOf(outcome.replacementHistory[0])).toMatch(/^w0 w1 .*tokens truncated.* w999$/s);
    expect(textOf(outcome.replacementHistory[1])).toBe(`${SUMMARY_PREFIX}\nshort`);
  });

  it('is a no-op, without asking the model, when even an empty summary would not shrink the history', async () => {
    const history = [user('hi'), assistant('hello')];
    const { outcome, client } = await run([{ text: words(50) }], { history });
    expect(outcome).toEqual({ status: 'noop', reason: 'a summary would not make the history smaller' });
    expect(client.requests).toHaveLength(0);
  });

  it('is a no-op when the summary the model wrote would not shrink the history', async () => {
    const history = [user('hi'), assistant(words(30))];
    const { outcome, client } = await run([{ text: words(80) }], { history });
    expect(outcome).toEqual({ status: 'noop', reason: 'a summary would not make the history smaller' });
    expect(client.requests).toHaveLength(1);
  });

  it('cuts a new message that alone exceeds the budget, and keeps it last; with nothing else, asks no summary', async () => {
    const huge = user(`START ${words(200_000)} END`);
    const first = await run([{ text: SUMMARY }], {
      history: [s, user('hi'), assistant('hello')],
      newUserMessage: huge,
    });
    const result = compacted(first.outcome);
    const last = result.replacementHistory.at(-1);
    expect(textOf(last)).toMatch(/^START .*tokens truncated.* END$/s);
    expect(result.tokensAfter).toBeLessThan(80_000);
    const alone = await run([{ text: SUMMARY }], { history: [s], newUserMessage: huge });
    expect(alone.client.requests).toHaveLength(0);
    expect(compacted(alone.outcome).summary).toBe(NOTHING_TO_SUMMARISE);
    expect(compacted(alone.outcome).replacementHistory.map((item) => textOf(item).slice(0, 5))).toEqual([
      'You a',
      'START',
    ]);
  });

  it('keeps the new message last, after the summary, out of the summary request', async () => {
    const next = user('the new question');
    const { outcome, client } = await run([{ text: SUMMARY }], { newUserMessage: next });
    const result = compacted(outcome);
    expect(result.replacementHistory.at(-1)).toEqual(next);
    const sent = result.replacementHistory.filter((item) => item.type !== 'ghost_snapshot');
    expect(textOf(sent.at(-2))).toBe(`${SUMMARY_PREFIX}\n${SUMMARY}`);
    expect(client.requests[0]?.items).not.toContainEqual(next);
  });
});

describe('compactHistory when the summary request overflows', () => {
  it('drops the oldest item and retries; the second summary call succeeds', async () => {
    const { outcome, client, progress } = await run([
      { error: providerError('context-overflow') },
      { text: SUMMARY },
    ]);
    const result = compacted(outcome);
    expect(result.trimmedItems).toBe(1);
    expect(result.summary).toBe(SUMMARY);
    expect(client.requests).toHaveLength(2);
    expect(client.requests[0]?.items).toContainEqual(conversation[2]);
    expect(client.requests[1]?.items).not.toContainEqual(conversation[2]);
    expect(client.requests[1]?.items.slice(0, 2)).toEqual([s, d]);
    expect(progress).toEqual([
      { type: 'summary-request', attempt: 1 },
      { type: 'trimmed', removed: 1 },
      { type: 'summary-request', attempt: 2 },
    ]);
    // The trimmed message was summarised away, not lost from the kept messages.
    expect(result.replacementHistory).toContainEqual(conversation[2]);
    // Ghost snapshots come from the original history, whatever the request lost.
    expect(result.replacementHistory.filter((item) => item.type === 'ghost_snapshot')).toEqual([
      ghost('g1'),
      ghost('g2'),
    ]);
  });

  it('removes a call together with its output', async () => {
    const history = [s, call('c1'), output('c1', words(50)), user('question'), assistant('answer')];
    const { outcome, client } = await run([{ error: providerError('context-overflow') }, { text: SUMMARY }], {
      history,
    });
    expect(compacted(outcome).trimmedItems).toBe(2);
    const retried = client.requests[1]?.items ?? [];
    expect(
      retried.some((item) => item.type === 'function_call' || item.type === 'function_call_output'),
    ).toBe(false);
  });

  it('resets the retry count after trimming', async () => {
    const serverErrors = Array.from({ length: 5 }, () => ({ error: providerError('server') }));
    const { outcome, client } = await run([
      ...serverErrors,
      { error: providerError('context-overflow') },
      ...serverErrors,
      { text: SUMMARY },
    ]);
    expect(compacted(outcome).summaryFailed).toBe(false);
    expect(client.requests).toHaveLength(12);
  });

  it('falls back to the placeholder when there is nothing left to trim', async () => {
    const history = [s, user(words(2_000))];
    const { outcome, client } = await run(
      [{ error: providerError('context-overflow') }, { error: providerError('context-overflow') }],
      { history, autoCompactLimit: 400, placeholderOnFailure: true },
    );
    const result = compacted(outcome);
    expect(result.summary).toBe(SUMMARY_UNAVAILABLE);
    expect(result.summaryFailed).toBe(true);
    expect(client.requests).toHaveLength(2);
  });

  it('trims before sending so that every request fits the window (the window is already full)', async () => {
    const history: ResponseItem[] = [s];
    for (let turn = 0; turn < 40; turn += 1) {
      history.push(user(words(100, `u${turn}-`)), call(`c${turn}`), output(`c${turn}`, words(100)));
    }
    const contextWindow = 4_000;
    const { outcome, client, progress } = await run([{ text: SUMMARY }], {
      history,
      contextWindow,
      autoCompactLimit: 2_600,
    });
    const result = compacted(outcome);
    expect(result.tokensBefore).toBeGreaterThan(contextWindow);
    expect(result.trimmedItems).toBeGreaterThan(0);
    expect(progress.filter((event) => event.type === 'trimmed').length).toBeGreaterThan(0);
    const request = client.requests[0];
    const sent = (request?.items ?? []).reduce((sum, item) => sum + wordEstimator().countItem(item), 0);
    expect(sent + (request?.maxOutputTokens ?? 0)).toBeLessThanOrEqual(contextWindow);
    // the newest turns are the ones still in the request, with calls and outputs paired
    expect(request?.items).toContainEqual(history.at(-3));
    const calls = request?.items.filter((item) => item.type === 'function_call').length;
    const outputs = request?.items.filter((item) => item.type === 'function_call_output').length;
    expect(calls).toBe(outputs);
    expect(result.tokensAfter).toBeLessThan(2_600);
  });
});

describe('compactHistory when the summary fails', () => {
  it.each<[string, ScriptedResponse[], number]>([
    ['a bad request', [{ error: providerError('bad-request') }], 1],
    ['retries exhausted', Array.from({ length: 6 }, () => ({ error: providerError('overloaded') })), 6],
    ['an empty summary', [{ text: '  \n ' }], 1],
  ])(
    'an automatic compaction uses the placeholder after %s, and does not throw',
    async (_name, script, requests) => {
      const { outcome, client } = await run(script, { placeholderOnFailure: true });
      const result = compacted(outcome);
      expect(result.summary).toBe(SUMMARY_UNAVAILABLE);
      expect(result.summaryFailed).toBe(true);
      expect(result.summaryError).toBeTruthy();
      expect(textOf(result.replacementHistory.find((item) => textOf(item).startsWith(SUMMARY_PREFIX)))).toBe(
        `${SUMMARY_PREFIX}\n${SUMMARY_UNAVAILABLE}`,
      );
      expect(result.replacementHistory.filter((item) => item.type === 'ghost_snapshot')).toHaveLength(2);
      expect(client.requests).toHaveLength(requests);
    },
  );

  it.each<[string, ScriptedResponse[]]>([
    ['a rejected key', [{ error: providerError('auth') }]],
    ['a ProviderError thrown by the stream', [{ throws: providerError('not-found') }]],
  ])(
    'even an automatic compaction keeps the history after %s (every request would fail)',
    async (_name, script) => {
      const { outcome } = await run(script, { placeholderOnFailure: true });
      expect(outcome).toMatchObject({
        status: 'failed',
        error: { kind: script[0] && 'error' in script[0] ? 'auth' : 'not-found' },
      });
    },
  );

  it.each<[string, ScriptedResponse[], number]>([
    ['a bad request', [{ error: providerError('bad-request') }], 1],
    ['a rejected key', [{ error: providerError('auth') }], 1],
    ['retries exhausted', Array.from({ length: 6 }, () => ({ error: providerError('overloaded') })), 6],
    ['an empty summary', [{ text: ' ' }], 1],
  ])('a manual compaction keeps the history after %s', async (_name, script, requests) => {
    const { outcome, client } = await run(script);
    expect(outcome.status).toBe('failed');
    expect(client.requests).toHaveLength(requests);
  });

  it('retries a retryable error, then succeeds', async () => {
    const { outcome, client, progress } = await run([
      { error: providerError('rate-limit') },
      { text: SUMMARY },
    ]);
    expect(compacted(outcome).summary).toBe(SUMMARY);
    expect(client.requests).toHaveLength(2);
    expect(progress.map((event) => event.type)).toEqual(['summary-request', 'retry']);
    expect(progress[1]).toMatchObject({
      type: 'retry',
      attempt: 1,
      maxRetries: 5,
      reason: 'scripted rate-limit',
    });
  });

  it('rethrows an error that is not a provider failure (a bug)', async () => {
    await expect(run([{ throws: new TypeError('bug in an adapter') }])).rejects.toThrow('bug in an adapter');
  });
});

describe('compactHistory backoff and cancellation', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits 200 ms × 2^(n−1) with jitter between retries, and honours retry-after', async () => {
    vi.useFakeTimers();
    const progress: CompactionProgress[] = [];
    const pending = compactWith({
      history: conversation,
      client: new ScriptedClient([
        { error: providerError('overloaded') },
        { error: providerError('server') },
        { error: providerError('network') },
        { error: providerError('rate-limit', { retryAfterMs: 5_000 }) },
        { text: SUMMARY },
      ]),
      estimator: wordEstimator(),
      contextWindow: 100_000,
      autoCompactLimit: 80_000,
      onProgress: (event) => progress.push(event),
    });
    await vi.runAllTimersAsync();
    expect(compacted(await pending).summary).toBe(SUMMARY);
    const delays = progress.flatMap((event) => (event.type === 'retry' ? [event.delayMs] : []));
    expect(delays).toHaveLength(4);
    const [first, second, third, fourth] = delays as [number, number, number, number];
    expect(first).toBeGreaterThanOrEqual(150);
    expect(first).toBeLessThanOrEqual(250);
    expect(second).toBeGreaterThanOrEqual(300);
    expect(second).toBeLessThanOrEqual(500);
    expect(third).toBeGreaterThanOrEqual(600);
    expect(third).toBeLessThanOrEqual(1_000);
    expect(fourth).toBe(5_000);
  });

  it('fails when aborted before it starts, without asking the model', async () => {
    const controller = new AbortController();
    controller.abort(new Error('cancelled'));
    const client = new ScriptedClient([{ text: SUMMARY }]);
    const { outcome } = await run([], { client, signal: controller.signal });
    expect(outcome).toEqual({ status: 'failed', reason: 'interrupted' });
    expect(client.requests).toHaveLength(0);
  });

  it('fails as aborted (the history kept) when aborted during a backoff wait', async () => {
    const controller = new AbortController();
    const client = new ScriptedClient([{ error: providerError('server') }, { text: SUMMARY }]);
    const pending = compactWith({
      history: conversation,
      client,
      estimator: wordEstimator(),
      contextWindow: 100_000,
      autoCompactLimit: 80_000,
      retryPolicy: { maxRetries: 5, baseDelayMs: 60_000, maxDelayMs: 60_000 },
      signal: controller.signal,
      onProgress: (event) => {
        if (event.type === 'retry') controller.abort(new Error('cancelled'));
      },
    });
    expect(await pending).toMatchObject({ status: 'failed', error: { kind: 'aborted' } });
    expect(client.requests).toHaveLength(1);
  });
});
