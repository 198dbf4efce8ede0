/**
 * `kill -9` at random moments of slow streamed turns, including automatic compactions (a small
 * context window makes them frequent) and manual ones (`cody compact`). Afterwards:
 *   - acknowledged items lost: a message the provider received (so the person was told it was sent)
 *     that is not in the rollout, or a reply `cody chat` finished printing (exit 0) that is not;
 *   - conversations unusable: a conversation on which `cody chat` or `cody show` then fails;
 *   - histories sent inconsistently: a request the fake provider's validator rejected, or one carrying
 *     two of the person's messages in a row (a turn left dangling) after its last summary.
 */
import { COMPACTION_PROMPT } from '../../src/core/compact/build-summary-request.js';
import type { RecordedRequest } from '../fake-provider/types.js';
import { createTortureHome, requestMessages } from './home.js';
import { startCodyBatch } from './run-batch.js';
import { random, runCody } from './run-cody.js';

export interface KillFigures {
  kills: number;
  killedDuringCompaction: number;
  acknowledgedLost: number;
  unusable: number;
  inconsistentRequests: number;
  requests: number;
  /** The first failure of each kind, to look into. */
  firstFailure?: string;
  firstUnusable?: string;
}

const SUMMARY_PREFIX = '[Cody context summary]';
/** About 400 tokens: with a 1,500-token window, an automatic compaction every few turns. */
const FILLER = Array.from({ length: 200 }, (_, index) => `w${index * 7919}`).join(' ');
const REPLY = 'A slow answer, streamed piece by piece so that a kill can land anywhere in it. '.repeat(3);

/** Requests whose history is inconsistent (see the module comment). */
export function inconsistentRequests(requests: readonly RecordedRequest[]): number {
  let count = 0;
  for (const request of requests) {
    if (request.rejected !== undefined) {
      count += 1;
      continue;
    }
    const messages = requestMessages(request).filter(([role]) => role === 'user' || role === 'assistant');
    // A summary request ends with the compaction prompt, right after the last message: by design.
    if (
      messages.at(-1)?.[1] === COMPACTION_PROMPT ||
      messages.at(-1)?.[1].startsWith(`${COMPACTION_PROMPT}\n`)
    )
      messages.pop();
    const lastSummary = messages.findLastIndex(([, text]) => text.startsWith(SUMMARY_PREFIX));
    const after = messages.slice(lastSummary + 1);
    if (after.some(([role], index) => index > 0 && role === 'user' && after[index - 1]?.[0] === 'user'))
      count += 1;
  }
  return count;
}

export async function runKills(options: {
  kills: number;
  seed: number;
  conversations?: number;
}): Promise<KillFigures> {
  const next = random(options.seed);
  const torture = await createTortureHome({ chunkDelayMs: 25 });
  const figures: KillFigures = {
    kills: 0,
    killedDuringCompaction: 0,
    acknowledgedLost: 0,
    unusable: 0,
    inconsistentRequests: 0,
    requests: 0,
  };
  try {
    // A small window: an automatic compaction every few turns.
    await torture.writeConfig({ models: { 'gpt-4.1-mini': { contextWindow: 1_500, maxOutputTokens: 300 } } });
    const run = (args: string[], killAfterMs?: number) =>
      runCody(args, {
        env: torture.env,
        cwd: torture.root,
        ...(killAfterMs !== undefined ? { killAfterMs } : {}),
      });
    // Enough conversations that a killed holder's lock is stale (10 s) before its conversation's next turn.
    const ids: string[] = [];
    const setUp = startCodyBatch({ env: torture.env, cwd: torture.root });
    try {
      for (let index = 0; index < (options.conversations ?? 12); index += 1) {
        ids.push((await setUp.run(['new'])).stdout.trim());
      }
    } finally {
      await setUp.close();
    }
    const completedReplies: Array<{ id: string; token: string }> = [];
    const acknowledged = new Map<string, string>();
    let action = 0;
    while (figures.kills < options.kills) {
      const id = ids[action % ids.length] ?? '';
      action += 1;
      const killAfterMs = Math.floor(next() * 2_500);
      const manual = next() < 0.15;
      const token = `msg${action}x${Math.floor(next() * 1e9).toString(36)}`;
      torture.server.enqueue({ type: 'reply', text: `${token} ${REPLY}` });
      const args = manual
        ? ['compact', '--conversation', id]
        : ['chat', '--conversation', id, `${token} ${FILLER}`];
      const result = await run(args, killAfterMs);
      if (result.signal === 'SIGKILL') {
        figures.kills += 1;
        if (manual || /Compacting/.test(result.stderr)) figures.killedDuringCompaction += 1;
      } else if (!manual && result.code === 0) completedReplies.push({ id, token });
      const requests = torture.server.modelRequests();
      figures.requests += requests.length;
      const inconsistent = inconsistentRequests(requests);
      if (inconsistent > 0 && figures.firstFailure === undefined) {
        const bad = requests.find((request) => inconsistentRequests([request]) > 0);
        figures.firstFailure = `inconsistent request: ${JSON.stringify(bad ? requestMessages(bad).map(([role, text]) => `${role}: ${text.slice(0, 40)}`) : [])}${bad?.rejected ? ` rejected: ${bad.rejected}` : ''}`;
      }
      figures.inconsistentRequests += inconsistent;
      for (const sent of acknowledgedMessages(requests)) acknowledged.set(sent, id);
      torture.server.reset();
    }
    // Acknowledged: every message a request carried, every reply a finished `cody chat` printed.
    const rollouts = new Map<string, string>();
    for (const id of ids) rollouts.set(id, await torture.rolloutText(id));
    for (const { id, token } of completedReplies) {
      const text = rollouts.get(id) ?? '';
      if (!text.includes(`${token} A slow answer`)) figures.acknowledgedLost += 1;
    }
    for (const [sent, id] of acknowledged) {
      if (!(rollouts.get(id) ?? '').includes(sent)) figures.acknowledgedLost += 1;
    }
    // Usable: a new turn and a show on every conversation (in one process, each as bin/cody.js runs it).
    const check = startCodyBatch({ env: torture.env, cwd: torture.root });
    for (const id of ids) {
      const chat = await check.run(['chat', '--conversation', id, 'final check']);
      const show = await check.run(['show', id]);
      if (chat.code !== 0 || !chat.stdout.includes('final check') || show.code !== 0) {
        figures.unusable += 1;
        figures.firstUnusable ??= `unusable ${id}: chat exit ${String(chat.code)} ${chat.stderr.trim()}; show exit ${String(show.code)} ${show.stderr.trim()}`;
      }
    }
    await check.close();
  } finally {
    await torture.close();
  }
  return figures;
}

function acknowledgedMessages(requests: readonly RecordedRequest[]): string[] {
  const tokens: string[] = [];
  for (const request of requests) {
    const last = requestMessages(request)
      .filter(([role]) => role === 'user')
      .at(-1);
    const match = last?.[1].match(/^msg\d+x[0-9a-z]+/);
    if (match) tokens.push(match[0]);
  }
  return tokens;
}
