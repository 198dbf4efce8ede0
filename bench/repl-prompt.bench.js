/**
 * Time to the REPL's prompt in a real pseudo-terminal (util-linux `script` provides it), against
 * `cody --version` in one interleaved run. Issue target: the prompt within 1.5 × the --version time,
 * compared like for like: --version through the same pty wrapper, whose own start-up (`script`, a shell)
 * would otherwise count against the prompt only. The bare --version ratio is printed too.
 * Run after `npm run build`: node bench/repl-prompt.bench.js [--rounds N]
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout } from 'node:timers';
import { compare, printTable, timeProcess } from './lib.js';

const roundsIndex = process.argv.indexOf('--rounds');
const rounds = roundsIndex > 0 ? Number(process.argv[roundsIndex + 1]) : 15;
const cody = join(import.meta.dirname, '..', 'bin', 'cody.js');
const home = await mkdtemp(join(tmpdir(), 'cody-bench-repl-'));
const env = { ...process.env, CODY_HOME: join(home, '.cody'), HOME: home, TERM: 'xterm-256color' };
delete env.NO_COLOR;

/** Spawns the REPL under a pty and resolves when its prompt ("› ") is on screen. */
function timePrompt() {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn('script', ['-qfec', `${process.execPath} ${cody}`, '/dev/null'], {
      env,
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let seen = '';
    let done = false;
    child.stdout.on('data', (chunk) => {
      seen += chunk.toString('utf8');
      if (!done && seen.includes('› ')) {
        done = true;
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        child.stdin.write('\u0004'); // Ctrl-D: leave cleanly
        child.on('close', () => resolve(ms));
      }
    });
    child.on('error', reject);
    setTimeout(() => {
      if (!done) {
        child.kill();
        reject(new Error(`no prompt after 10 s; saw: ${JSON.stringify(seen.slice(-300))}`));
      }
    }, 10_000);
  });
}

// A conversation to open, as a person returning to Cody has.
await timeProcess(process.execPath, [cody, 'new'], { env });
const medians = await compare(
  [
    { name: 'cody --version', run: () => timeProcess(process.execPath, [cody, '--version'], { env }) },
    {
      name: 'cody --version (pty)',
      run: () =>
        timeProcess('script', ['-qfec', `${process.execPath} ${cody} --version`, '/dev/null'], { env }),
    },
    { name: 'REPL prompt (pty)', run: timePrompt },
  ],
  rounds,
);
const version = medians.get('cody --version');
const versionPty = medians.get('cody --version (pty)');
const prompt = medians.get('REPL prompt (pty)');
printTable(`REPL start-up, median of ${rounds} interleaved rounds`, [
  ['cody --version', `${version.toFixed(1)} ms`],
  ['cody --version (pty)', `${versionPty.toFixed(1)} ms`],
  ['REPL prompt (pty)', `${prompt.toFixed(1)} ms`],
  // Like for like: both through the same pty wrapper (`script` and its shell start before Node does).
  ['ratio to --version, both in a pty (target ≤ 1.5)', (prompt / versionPty).toFixed(2)],
  ['ratio to a bare --version (wrapper counted once)', (prompt / version).toFixed(2)],
]);
await rm(home, { recursive: true, force: true });
