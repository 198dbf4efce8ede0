/**
 * What the bubblewrap sandbox costs per shell command: the same short command run through Cody's shell
 * runner plainly and inside bwrap, interleaved, medians of N rounds. Also the ghost-snapshot cost on this
 * repository. Run after `npm run build`: node bench/sandbox.bench.js [--rounds N]
 * Without bwrap installed it says so and times only the plain runner and the snapshot.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { median, printTable } from './lib.js';

const dist = join(import.meta.dirname, '..', 'dist', 'src', 'core');
const { runShellCommand } = await import(join(dist, 'tools', 'shell-runner.js'));
const { findOnPath } = await import(join(dist, 'tools', 'find-on-path.js'));
const { createGhostSnapshot } = await import(join(dist, 'undo', 'ghost-snapshot.js'));

const roundsIndex = process.argv.indexOf('--rounds');
const rounds = roundsIndex > 0 ? Number(process.argv[roundsIndex + 1]) : 30;
const root = join(import.meta.dirname, '..');
const bwrap = findOnPath('bwrap');

const timed = (run) => async () => {
  const started = process.hrtime.bigint();
  await run();
  return Number(process.hrtime.bigint() - started) / 1e6;
};
const shell = (sandbox) =>
  timed(async () => {
    const outcome = await runShellCommand({
      command: 'echo hi',
      cwd: root,
      timeoutMs: 10_000,
      ...(sandbox ? { sandbox } : {}),
    });
    if (outcome.exitCode !== 0) throw new Error(`exit ${outcome.exitCode}: ${outcome.output}`);
  });

const cases = [{ name: 'shell: echo hi (no sandbox)', run: shell(undefined) }];
if (bwrap)
  cases.push({ name: 'shell: echo hi (bwrap)', run: shell({ bwrap, writableRoot: root, network: false }) });
else process.stdout.write('bwrap is not installed: timing the plain runner only.\n');
if (existsSync(join(root, '.git')))
  cases.push({ name: 'ghost snapshot of this repository', run: timed(() => createGhostSnapshot(root)) });

// Interleaved rounds (machine noise hits every case alike), after one warm-up run each.
const samples = new Map(cases.map((entry) => [entry.name, []]));
for (const entry of cases) await entry.run();
for (let round = 0; round < rounds; round += 1) {
  for (const entry of cases) samples.get(entry.name).push(await entry.run());
}
const medians = new Map([...samples].map(([name, values]) => [name, median(values)]));
printTable(
  `Median ms over ${rounds} interleaved rounds`,
  [...medians].map(([name, ms]) => [name, ms.toFixed(1)]),
);
const plain = medians.get('shell: echo hi (no sandbox)');
const boxed = medians.get('shell: echo hi (bwrap)');
if (plain !== undefined && boxed !== undefined)
  process.stdout.write(
    `  bwrap overhead per command: +${(boxed - plain).toFixed(1)} ms (${(boxed / plain).toFixed(2)}×)\n`,
  );
