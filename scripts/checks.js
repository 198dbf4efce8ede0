/**
 * The checks `npm test` runs, in three lanes side by side: `npm run lint`, `npm run typecheck`, and
 * `npm run build`. With `--test` (what `npm test` passes), the build lane goes on to `vitest run` (with
 * the arguments after `--test`) as soon as the build is done — the tests need the built `cody`, not the
 * other two checks — so lint and typecheck use the cores the tests leave idle while they wait (see
 * DECISIONS.md, "The test command under 4 minutes"). Each check lane's output is printed whole when it
 * ends (never interleaved); the tests' output streams as it comes. A failing check stops the tests; the
 * exit code is the first failing lane's, else 0.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { buildIsFresh } from './build-stamp.js';

const testAt = process.argv.indexOf('--test');
const vitestArgs = testAt === -1 ? undefined : process.argv.slice(testAt + 1);
const VITEST = join(import.meta.dirname, '..', 'node_modules', '.bin', 'vitest');

/** The running tests, stopped when a check fails. */
let tests;
let failed = false;

/** Runs `npm run <script>` with its output kept for the end of the lane. */
function runScript(script, lane) {
  lane.output += `> npm run ${script}\n`;
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk) => (lane.output += chunk));
    child.stderr.on('data', (chunk) => (lane.output += chunk));
    child.on('error', (error) => {
      lane.output += `${String(error)}\n`;
      resolve(1);
    });
    child.on('close', (exitCode) => resolve(exitCode ?? 1));
  });
}

/** `vitest run`, its output straight to ours. */
function runTests() {
  return new Promise((resolve) => {
    tests = spawn(VITEST, ['run', ...vitestArgs], { stdio: 'inherit' });
    tests.on('error', (error) => {
      process.stderr.write(`${String(error)}\n`);
      resolve(1);
    });
    tests.on('close', (exitCode) => resolve(exitCode ?? 1));
  });
}

/** Runs each step of the lane in turn, stopping at the first failure (or when another lane failed). */
async function runLane(steps) {
  const lane = { output: '' };
  let code = 0;
  for (const step of steps) {
    if (failed) break;
    if (step === 'vitest') {
      // The build's output goes out before the tests' starts.
      process.stdout.write(lane.output);
      lane.output = '';
    }
    if (step === 'build' && buildIsFresh()) {
      // A fresh `npm ci` has just built these very files (its `prepare`): the same build again would only
      // cost time (dist/.build-stamp, scripts/build-stamp.js).
      lane.output += '> npm run build: skipped, dist/ is the build of these sources already\n';
      continue;
    }
    code = step === 'vitest' ? await runTests() : await runScript(step, lane);
    if (code !== 0) break;
  }
  process.stdout.write(lane.output);
  if (code !== 0 && !failed) {
    failed = true;
    tests?.kill('SIGTERM');
  }
  return code;
}

const lanes = [['lint'], ['typecheck'], vitestArgs === undefined ? ['build'] : ['build', 'vitest']];
const codes = await Promise.all(lanes.map(runLane));
process.exitCode = codes.find((code) => code !== 0) ?? 0;
