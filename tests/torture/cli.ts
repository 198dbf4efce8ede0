/**
 * `npm run torture`: the whole torture suite, figures printed as one table. Options:
 *   --kills N (200)  --mutants N (1000)  --writers N (20)  --mixed N (60)  --seed N (7)
 * Run after `npm run build` (the script does it). Exits 1 when a figure that must be 0 is not.
 */
import { runConcurrency } from './concurrency.js';
import { runHostileConfigs } from './hostile-config.js';
import { runKills } from './kills.js';
import { runMutants } from './mutants.js';
import { runProviderFaults } from './provider-faults.js';
import { runStorage } from './storage.js';

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
}

const seed = option('seed', 7);
const started = Date.now();
const rows: Array<[string, string, string]> = [];
/** [part, figure, value]; a value that must be 0 is marked when it is not. */
const row = (part: string, figure: string, value: number | string, mustBeZero = true): void => {
  rows.push([part, figure, `${value}${mustBeZero && value !== 0 ? '  ✗' : ''}`]);
};
const failures: string[] = [];
const progress = (text: string): void =>
  void process.stderr.write(`torture: ${text} (${((Date.now() - started) / 1000).toFixed(0)} s)\n`);

progress('kill -9 at random moments');
const kills = await runKills({ kills: option('kills', 200), seed });
row('kill -9', 'kills (during compaction)', `${kills.kills} (${kills.killedDuringCompaction})`, false);
row('kill -9', 'acknowledged items lost', kills.acknowledgedLost);
row('kill -9', 'conversations unusable afterwards', kills.unusable);
row('kill -9', `histories sent inconsistently (of ${kills.requests} requests)`, kills.inconsistentRequests);

progress('concurrent writers and a mixed run');
const concurrency = await runConcurrency({
  writers: option('writers', 20),
  mixed: option('mixed', 60),
  seed,
});
row(
  'concurrency',
  'writers on one conversation / mixed commands',
  `${concurrency.writers} / ${concurrency.mixedCommands}`,
  false,
);
row('concurrency', 'corrupt lines', concurrency.corruptLines);
row('concurrency', 'messages or replies not exactly once', concurrency.notExactlyOnce);
row('concurrency', 'commands failed (exit 70, trace, hang, chat error)', concurrency.failedCommands);

progress('mutated rollouts');
const mutants = await runMutants({
  mutants: option('mutants', 1000),
  seed,
  hugeBytes: () => 10_000_000 + Math.floor(Math.random() * 40_000_000),
});
row(
  'mutated rollouts',
  'mutants × show/list/resume/chat/status',
  `${mutants.mutants} × 5 = ${mutants.runs}`,
  false,
);
row('mutated rollouts', 'exit 70', mutants.exit70);
row('mutated rollouts', 'stack traces', mutants.stackTraces);
row('mutated rollouts', 'hangs', mutants.hangs);
row('mutated rollouts', 'unexpected file changes', mutants.unexpectedChanges);
if (mutants.firstFailure) failures.push(`mutants: ${mutants.firstFailure}`);

progress('hostile config files');
const configs = await runHostileConfigs();
row('hostile config', 'configs × list/chat/set-provider', `${configs.configs} × 3 = ${configs.runs}`, false);
row('hostile config', 'hangs, exit 70, stack traces', configs.hangs + configs.exit70 + configs.stackTraces);
row('hostile config', 'not refused with exit 2 and one line', configs.notRefused);
if (configs.firstFailure) failures.push(`config: ${configs.firstFailure}`);

progress('provider faults');
const faults = await runProviderFaults();
row('provider faults', 'scenarios (7 faults × 4 APIs)', faults.scenarios, false);
row('provider faults', 'wrong exit codes', faults.wrongExitCodes);
row('provider faults', 'reply on stdout not exactly once', faults.replyNotExactlyOnce);
row('provider faults', 'inconsistent rollouts', faults.inconsistentRollouts);
if (faults.firstFailure) failures.push(`faults: ${faults.firstFailure}`);

progress('full and read-only CODY_HOME');
const storage = await runStorage();
if (storage.skipped) row('storage', 'full and read-only CODY_HOME', `skipped: ${storage.skipped}`, false);
else {
  row('storage', 'cases', storage.cases, false);
  row('storage', 'wrong exit codes', storage.wrongExitCodes);
  row('storage', 'sent without being saved', storage.sentWithoutBeingSaved);
  row('storage', 'messages lost', storage.messageLost);
  row('storage', 'answers without their question', storage.answersWithoutQuestion);
  if (storage.firstFailure) failures.push(`storage: ${storage.firstFailure}`);
}

const widths = [0, 1, 2].map((column) => Math.max(...rows.map((entry) => entry[column]?.length ?? 0)));
process.stdout.write(
  `\nCody torture suite (seed ${seed}, ${((Date.now() - started) / 60_000).toFixed(1)} min)\n`,
);
for (const entry of rows)
  process.stdout.write(`  ${entry.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ')}\n`);
for (const failure of failures) process.stdout.write(`  first failure — ${failure}\n`);
process.exitCode = rows.some((entry) => entry[2].endsWith('✗')) ? 1 : 0;
