/**
 * The checks `npm test` runs before the tests, two at a time: `npm run lint` beside
 * `npm run typecheck && npm run build`. Each is one process on one core, so on two cores side by side
 * they take the time of the longer instead of the sum. Each lane's output is printed whole when it
 * ends (never interleaved); the exit code is the first failing lane's, else 0.
 */
import { spawn } from 'node:child_process';

const lanes = [['lint'], ['typecheck', 'build']];

/** Runs `npm run <script>` for each script of the lane in turn, stopping at the first failure. */
async function runLane(scripts) {
  let output = '';
  for (const script of scripts) {
    output += `> npm run ${script}\n`;
    const code = await new Promise((resolve) => {
      const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
      child.on('error', (error) => {
        output += `${String(error)}\n`;
        resolve(1);
      });
      child.on('close', (exitCode) => resolve(exitCode ?? 1));
    });
    if (code !== 0) return { code, output };
  }
  return { code: 0, output };
}

const results = await Promise.all(
  lanes.map((lane) =>
    runLane(lane).then((result) => {
      process.stdout.write(result.output);
      return result;
    }),
  ),
);
process.exitCode = results.find((result) => result.code !== 0)?.code ?? 0;
