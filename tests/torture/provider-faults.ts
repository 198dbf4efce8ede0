/**
 * Provider faults on all four APIs: 429 with retry-after, 500, 529, a connection dropped before and
 * in the middle of the stream, failing past the retry budget, and 401. For each: the exit code `cody
 * chat` must give (0 after a successful retry, 5 past the budget, 4 for a rejected key), the reply on
 * stdout exactly once, and a rollout that never holds an answer without its question. Each scenario's
 * `cody chat` is a process of its own; the `new` and `set-provider` before it share one (run-batch.ts).
 */
import type { Step } from '../fake-provider/types.js';
import { createTortureHome } from './home.js';
import { startCodyBatch } from './run-batch.js';
import { hasStackTrace, runCody } from './run-cody.js';

export interface FaultFigures {
  scenarios: number;
  wrongExitCodes: number;
  replyNotExactlyOnce: number;
  inconsistentRollouts: number;
  stackTraces: number;
  firstFailure?: string;
}

const APIS: Array<[string, string[]]> = [
  ['openai-chat', ['set-provider', 'openai', '--api', 'chat', '--model', 'gpt-4o']],
  ['openai-responses', ['set-provider', 'openai', '--api', 'responses', '--model', 'gpt-4o']],
  ['anthropic-messages', ['set-provider', 'anthropic', '--model', 'claude-sonnet-4-5']],
  ['gemini', ['set-provider', 'google', '--model', 'gemini-2.5-flash']],
];

const REPLY = 'The answer arrives in many small pieces, so a dropped connection cuts it in the middle.';

const SCENARIOS: Array<[string, Step[], number]> = [
  [
    '429 with retry-after',
    [
      { type: 'error', status: 429, headers: { 'retry-after': '1' } },
      { type: 'reply', text: REPLY },
    ],
    0,
  ],
  [
    '500',
    [
      { type: 'error', status: 500 },
      { type: 'reply', text: REPLY },
    ],
    0,
  ],
  [
    '529',
    [
      { type: 'error', status: 529 },
      { type: 'reply', text: REPLY },
    ],
    0,
  ],
  [
    'drop before the stream',
    [
      { type: 'reply', text: REPLY, disconnectAfterFrames: 0 },
      { type: 'reply', text: REPLY },
    ],
    0,
  ],
  [
    'drop mid-stream',
    [
      { type: 'reply', text: REPLY, disconnectAfterFrames: 4 },
      { type: 'reply', text: REPLY },
    ],
    0,
  ],
  ['past the retry budget', Array.from({ length: 4 }, (): Step => ({ type: 'error', status: 500 })), 5],
  ['401', [{ type: 'error', status: 401 }], 4],
];

/** Lines of the rollout as parsed objects (unparseable lines skipped: counted elsewhere). */
function roles(text: string): string[] {
  const result: string[] = [];
  for (const line of text.split('\n')) {
    try {
      const parsed = JSON.parse(line) as { type?: string; payload?: { type?: string; role?: string } };
      if (parsed.type === 'response_item' && parsed.payload?.type === 'message' && parsed.payload.role)
        result.push(parsed.payload.role);
    } catch {
      // not a line
    }
  }
  return result;
}

export async function runProviderFaults(): Promise<FaultFigures> {
  const torture = await createTortureHome({ chunkDelayMs: 1 });
  const figures: FaultFigures = {
    scenarios: 0,
    wrongExitCodes: 0,
    replyNotExactlyOnce: 0,
    inconsistentRollouts: 0,
    stackTraces: 0,
  };
  const setUp = startCodyBatch({ env: torture.env, cwd: torture.root });
  try {
    await torture.writeConfig({ retry: { maxRetries: 3, baseDelayMs: 20, maxDelayMs: 100 } });
    const run = (args: string[]) =>
      runCody(args, { env: torture.env, cwd: torture.root, deadlineMs: 30_000 });
    for (const [api, select] of APIS) {
      for (const [name, steps, expected] of SCENARIOS) {
        const id = (await setUp.run(['new'])).stdout.trim();
        await setUp.run(select);
        torture.server.reset();
        torture.server.enqueue(...steps);
        const result = await run(['chat', '--conversation', id, `${name} on ${api}`]);
        figures.scenarios += 1;
        const failures: string[] = [];
        if (result.code !== expected) {
          figures.wrongExitCodes += 1;
          failures.push(`exit ${String(result.code)}`);
        }
        if (expected === 0 && result.stdout !== `${REPLY}\n`) {
          figures.replyNotExactlyOnce += 1;
          failures.push(`stdout ${JSON.stringify(result.stdout.slice(0, 200))}`);
        }
        if (hasStackTrace(result.stderr)) {
          figures.stackTraces += 1;
          failures.push('stack trace');
        }
        const sequence = roles(await torture.rolloutText(id)).filter(
          (role) => role !== 'developer' && role !== 'system',
        );
        const answerWithoutQuestion = sequence.some(
          (role, index) =>
            role === 'assistant' && sequence.slice(0, index).every((earlier) => earlier !== 'user'),
        );
        if (answerWithoutQuestion || (expected === 0 && sequence.join(',') !== 'user,assistant')) {
          figures.inconsistentRollouts += 1;
          failures.push(`rollout ${sequence.join(',')}`);
        }
        if (failures.length > 0 && figures.firstFailure === undefined)
          figures.firstFailure = `${name} on ${api}: ${failures.join(', ')}; ${result.stderr.split('\n').slice(-2).join(' ')}`;
      }
    }
  } finally {
    await setUp.close();
    await torture.close();
  }
  return figures;
}
