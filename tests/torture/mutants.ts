/**
 * Mutated rollouts × the commands that read them. Each mutant is a real rollout (a plain chat, a
 * compacted one, an imported Codex session) damaged one way — truncated, bytes flipped, a garbage,
 * duplicated or swapped line, a value of the wrong type, a 10–50 MB line, invalid UTF-8, NUL bytes,
 * no session_meta — alone in a CODY_HOME. `show`, `list`, `resume`, `chat` and `status` then run on
 * it. Counted: exit 70 (internal error), a stack trace, a hang, and an unexpected file change: the
 * reading commands must leave the rollout byte for byte as it was; `chat` may only append (after
 * cutting a torn last line). Each mutant's five commands run one after another in one process of their
 * own, each as bin/cody.js runs it (run-batch.ts): a process start per mutant, not per command.
 */
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { createTortureHome, type TortureHome } from './home.js';
import { startCodyBatch } from './run-batch.js';
import { hasStackTrace, random, REPO_ROOT } from './run-cody.js';

export const MUTATIONS = [
  'truncate',
  'flip-bytes',
  'garbage-line',
  'duplicate-line',
  'swap-lines',
  'wrong-type',
  'huge-line',
  'invalid-utf8',
  'nul-bytes',
  'no-session-meta',
] as const;
export type Mutation = (typeof MUTATIONS)[number];

export interface MutantFigures {
  mutants: number;
  runs: number;
  exit70: number;
  stackTraces: number;
  hangs: number;
  unexpectedChanges: number;
  /** Which mutant and command failed first, to replay it. */
  firstFailure?: string;
}

const COMMANDS = ['show', 'list', 'resume', 'chat', 'status'] as const;

function lines(buffer: Buffer): Buffer[] {
  const result: Buffer[] = [];
  let start = 0;
  for (let index = buffer.indexOf(10); index !== -1; index = buffer.indexOf(10, start)) {
    result.push(buffer.subarray(start, index + 1));
    start = index + 1;
  }
  if (start < buffer.length) result.push(buffer.subarray(start));
  return result;
}

function wrongType(value: unknown, next: () => number): unknown {
  const choices = [42, 'text', null, [1, 2], { nested: true }, true];
  if (value === null || typeof value !== 'object') return choices[Math.floor(next() * choices.length)];
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  const key = keys[Math.floor(next() * keys.length)];
  if (key === undefined) return choices[0];
  return {
    ...record,
    [key]: next() < 0.5 ? wrongType(record[key], next) : choices[Math.floor(next() * choices.length)],
  };
}

/** `original` damaged by `mutation`; `hugeBytes` sizes the huge line. */
export function mutate(original: Buffer, mutation: Mutation, next: () => number, hugeBytes: number): Buffer {
  const parts = lines(original);
  const pick = (): number => Math.floor(next() * parts.length);
  switch (mutation) {
    case 'truncate':
      return original.subarray(0, Math.floor(next() * original.length));
    case 'flip-bytes': {
      const copy = Buffer.from(original);
      for (let count = 1 + Math.floor(next() * 4); count > 0; count -= 1) {
        const at = Math.floor(next() * copy.length);
        copy[at] = (copy[at] ?? 0) ^ (1 << Math.floor(next() * 8));
      }
      return copy;
    }
    case 'garbage-line':
      parts.splice(
        pick(),
        0,
        Buffer.from(
          `${['{"type":', 'not json at all', '[]', '{}', '{"type":"event_msg"}'][Math.floor(next() * 5)]}\n`,
        ),
      );
      return Buffer.concat(parts);
    case 'duplicate-line': {
      const at = pick();
      parts.splice(at, 0, parts[at] ?? Buffer.alloc(0));
      return Buffer.concat(parts);
    }
    case 'swap-lines': {
      const a = pick();
      const b = parts.length > 1 ? (a + 1 + Math.floor(next() * (parts.length - 1))) % parts.length : a;
      const first = parts[a];
      const second = parts[b];
      if (first && second) {
        parts[a] = second;
        parts[b] = first;
      }
      return Buffer.concat(parts);
    }
    case 'wrong-type': {
      const at = pick();
      try {
        const parsed = JSON.parse(parts[at]?.toString('utf8') ?? '') as unknown;
        parts[at] = Buffer.from(`${JSON.stringify(wrongType(parsed, next))}\n`);
      } catch {
        // a line that was already not JSON stays as it is
      }
      return Buffer.concat(parts);
    }
    case 'huge-line': {
      const text = 'H'.repeat(hugeBytes);
      const line = {
        timestamp: new Date().toISOString(),
        type: 'response_item',
        payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] },
      };
      parts.splice(
        1 + Math.floor(next() * Math.max(1, parts.length - 1)),
        0,
        Buffer.from(`${JSON.stringify(line)}\n`),
      );
      return Buffer.concat(parts);
    }
    case 'invalid-utf8':
    case 'nul-bytes': {
      const at = pick();
      const line = parts[at] ?? Buffer.alloc(0);
      const cut = Math.floor(next() * line.length);
      const inserted = mutation === 'nul-bytes' ? Buffer.from([0, 0]) : Buffer.from([0xc3, 0x28, 0xff]);
      parts[at] = Buffer.concat([line.subarray(0, cut), inserted, line.subarray(cut)]);
      return Buffer.concat(parts);
    }
    case 'no-session-meta':
      return Buffer.concat(parts.filter((line) => !line.toString('utf8').includes('"type":"session_meta"')));
    default: {
      const exhaustive: never = mutation;
      throw new Error(`unknown mutation ${String(exhaustive)}`);
    }
  }
}

/** A few real rollouts to damage: a plain chat, a compacted one, an imported Codex session. */
async function baseRollouts(torture: TortureHome): Promise<Array<{ id: string; bytes: Buffer }>> {
  const fixture = join(
    REPO_ROOT,
    'tests/fixtures/codex-rollouts/rollout-2026-05-11T13-28-45-019e1695-0522-7c83-8b39-0dd379793f80.jsonl',
  );
  const batch = startCodyBatch({ env: torture.env, cwd: torture.root });
  const run = async (args: string[]): Promise<string> => (await batch.run(args)).stdout.trim();
  let ids: string[];
  try {
    const plain = await run(['new']);
    for (const text of ['first question', 'second question', 'third question']) await run(['chat', text]);
    const compacted = await run(['new']);
    for (const text of ['one', 'two', 'three']) await run(['chat', text]);
    await run(['compact']);
    await run(['chat', 'after the compaction']);
    const imported = (await run(['import', fixture])).split(/\s+/).at(-1) ?? '';
    ids = [plain, compacted, imported];
  } finally {
    await batch.close();
  }
  const result: Array<{ id: string; bytes: Buffer }> = [];
  for (const id of ids) {
    const bytes = await readFile(torture.rolloutPath(id)).catch(() => undefined);
    if (bytes && bytes.length > 0) result.push({ id, bytes });
  }
  return result;
}

function allowedChatChange(before: Buffer, after: Buffer): boolean {
  if (after.equals(before)) return true;
  if (after.subarray(0, before.length).equals(before)) return true;
  // A torn last line may be cut before new lines are appended.
  const lastNewline = before.lastIndexOf(10);
  const kept = before.subarray(0, lastNewline + 1);
  return after.subarray(0, kept.length).equals(kept);
}

export async function runMutants(options: {
  mutants: number;
  seed: number;
  /** Size of the huge lines: 10–50 MB in the full run. */
  hugeBytes?: () => number;
  concurrency?: number;
}): Promise<MutantFigures> {
  const next = random(options.seed);
  const torture = await createTortureHome();
  const figures: MutantFigures = {
    mutants: 0,
    runs: 0,
    exit70: 0,
    stackTraces: 0,
    hangs: 0,
    unexpectedChanges: 0,
  };
  const scratch = await mkdtemp(join(tmpdir(), 'cody-mutants-'));
  try {
    const bases = await baseRollouts(torture);
    const jobs = Array.from({ length: options.mutants }, (_, index) => {
      const base = bases[index % bases.length];
      const mutation = MUTATIONS[Math.floor(next() * MUTATIONS.length)] ?? 'truncate';
      const huge = options.hugeBytes?.() ?? 10_000_000;
      return { index, base, mutation, seed: Math.floor(next() * 2 ** 31), huge };
    });
    const worker = async (): Promise<void> => {
      for (let job = jobs.shift(); job !== undefined; job = jobs.shift()) {
        if (!job.base) continue;
        const home = join(scratch, `m${job.index}`);
        const conversations = join(home, '.cody', 'conversations');
        await mkdir(conversations, { recursive: true, mode: 0o700 });
        const file = join(conversations, `${job.base.id}.jsonl`);
        const mutant = mutate(job.base.bytes, job.mutation, random(job.seed), job.huge);
        await writeFile(file, mutant, { mode: 0o600 });
        figures.mutants += 1;
        const env = { ...torture.env, HOME: home, CODY_HOME: join(home, '.cody') };
        const batch = startCodyBatch({ env, cwd: home, deadlineMs: 30_000 });
        for (const command of COMMANDS) {
          const before = await readFile(file);
          const args =
            command === 'show'
              ? ['show', job.base.id]
              : command === 'list'
                ? ['list']
                : command === 'resume'
                  ? ['resume', job.base.id]
                  : command === 'chat'
                    ? ['chat', '--conversation', job.base.id, 'are you still there?']
                    : ['status', job.base.id];
          const result = await batch.run(args);
          const after = await readFile(file).catch(() => Buffer.alloc(0));
          figures.runs += 1;
          const failures: string[] = [];
          if (result.code === 70) failures.push('exit 70');
          if (hasStackTrace(result.stderr) || hasStackTrace(result.stdout)) failures.push('stack trace');
          if (result.hung) failures.push('hang');
          const changed = command === 'chat' ? !allowedChatChange(before, after) : !after.equals(before);
          if (changed) failures.push('file changed');
          if (failures.includes('exit 70')) figures.exit70 += 1;
          if (failures.includes('stack trace')) figures.stackTraces += 1;
          if (failures.includes('hang')) figures.hangs += 1;
          if (changed) figures.unexpectedChanges += 1;
          if (failures.length > 0 && figures.firstFailure === undefined) {
            const saved = join(tmpdir(), `cody-torture-mutant-${options.seed}-${job.index}.jsonl`);
            await copyFile(file, saved).catch(() => undefined);
            figures.firstFailure = `${job.mutation} (${saved}) × ${command}: ${failures.join(', ')}; ${result.stderr.split('\n')[0] ?? ''}`;
          }
        }
        await batch.close();
        await rm(home, { recursive: true, force: true });
      }
    };
    await Promise.all(Array.from({ length: options.concurrency ?? 2 }, worker));
  } finally {
    await torture.close();
    await rm(scratch, { recursive: true, force: true });
  }
  return figures;
}
