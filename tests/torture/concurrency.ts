/**
 * Concurrent writers: `writers` × `cody chat` on one conversation at once (the lock makes them take
 * turns), then a mixed run of chat / compact / show / list / delete / set-provider on a few
 * conversations. Counted: corrupt rollout lines, messages or replies not found exactly once, commands
 * that failed unexpectedly (exit 70, a stack trace, a hang, a chat that did not finish).
 */
import { existsSync } from 'node:fs';
import { createTortureHome } from './home.js';
import { hasStackTrace, random, runCody, type CodyResult } from './run-cody.js';

export interface ConcurrencyFigures {
  writers: number;
  mixedCommands: number;
  corruptLines: number;
  notExactlyOnce: number;
  failedCommands: number;
}

function corruptLines(text: string): number {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .filter((line) => {
      try {
        JSON.parse(line);
        return false;
      } catch {
        return true;
      }
    }).length;
}

/** How many rollout lines are the person's message `token` (as typed, not inside other text). */
function userLinesWith(text: string, token: string): number {
  return text.split('\n').filter((line) => line.includes('"role":"user"') && line.includes(`"${token}"`))
    .length;
}

function unexpected(result: CodyResult): boolean {
  return result.hung || result.code === 70 || hasStackTrace(result.stderr);
}

export async function runConcurrency(options: {
  writers: number;
  mixed: number;
  seed: number;
}): Promise<ConcurrencyFigures> {
  const next = random(options.seed);
  const torture = await createTortureHome({ chunkDelayMs: 2 });
  const figures: ConcurrencyFigures = {
    writers: options.writers,
    mixedCommands: options.mixed,
    corruptLines: 0,
    notExactlyOnce: 0,
    failedCommands: 0,
  };
  try {
    await torture.writeConfig({ lockTimeoutMs: 120_000 });
    const run = (args: string[]) =>
      runCody(args, { env: torture.env, cwd: torture.root, deadlineMs: 150_000 });
    const id = (await run(['new'])).stdout.trim();
    const tokens = Array.from({ length: options.writers }, (_, index) => `writer${index}`);
    const results = await Promise.all(tokens.map((token) => run(['chat', '--conversation', id, token])));
    for (const result of results) if (result.code !== 0 || unexpected(result)) figures.failedCommands += 1;
    const text = await torture.rolloutText(id);
    figures.corruptLines += corruptLines(text);
    for (const token of tokens) {
      if (userLinesWith(text, token) !== 1) figures.notExactlyOnce += 1;
      if (text.split(`echo: ${token}"`).length - 1 !== 1) figures.notExactlyOnce += 1;
    }

    // The mixed run: a few conversations, commands started in overlapping batches.
    const ids = [id];
    for (let index = 0; index < 3; index += 1) ids.push((await run(['new'])).stdout.trim());
    const sent: Array<{ id: string; token: string; result: Promise<CodyResult> }> = [];
    const all: Array<Promise<CodyResult>> = [];
    const deleted = new Set<string>();
    for (let index = 0; index < options.mixed; index += 1) {
      const target = ids[Math.floor(next() * ids.length)] ?? id;
      const pick = next();
      let result: Promise<CodyResult>;
      if (pick < 0.4) {
        const token = `mixed${index}`;
        result = run(['chat', '--conversation', target, token]);
        sent.push({ id: target, token, result });
      } else if (pick < 0.55) result = run(['compact', '--conversation', target]);
      else if (pick < 0.7) result = run(['show', target]);
      else if (pick < 0.8) result = run(['list']);
      else if (pick < 0.9) result = run(['set-provider', next() < 0.5 ? 'anthropic' : 'openai']);
      else if (target !== id && !deleted.has(target)) {
        deleted.add(target);
        result = run(['delete', '--yes', target]);
      } else result = run(['status', target]);
      all.push(result);
      if (all.length % 6 === 0) await Promise.all(all.slice(-6));
    }
    for (const result of await Promise.all(all)) if (unexpected(result)) figures.failedCommands += 1;
    for (const { id: target, token, result } of sent) {
      const outcome = await result;
      if (deleted.has(target) && !existsSync(torture.rolloutPath(target))) continue;
      const rollout = await torture.rolloutText(target);
      if (outcome.code === 0 && userLinesWith(rollout, token) !== 1) figures.notExactlyOnce += 1;
      if (outcome.code !== 0 && outcome.code !== 3 && outcome.code !== 7) figures.failedCommands += 1;
    }
    for (const target of ids) figures.corruptLines += corruptLines(await torture.rolloutText(target));
  } finally {
    await torture.close();
  }
  return figures;
}
