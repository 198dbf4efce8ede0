/** Small helpers shared by the benchmarks: timing child processes, medians, plain tables. */
import { spawn } from 'node:child_process';

/** Runs `command args` to completion; resolves with wall time in ms. */
export function timeProcess(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'], ...options });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0) reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${stderr}`));
      else resolve(ms);
    });
  });
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * Interleaves the measured commands round by round (so machine noise hits all of them alike) and returns
 * the median of each.
 */
export async function compare(cases, rounds) {
  const samples = new Map(cases.map((entry) => [entry.name, []]));
  for (const entry of cases) await entry.run(); // warm-up: file cache
  for (let round = 0; round < rounds; round += 1) {
    for (const entry of cases) samples.get(entry.name).push(await entry.run());
  }
  return new Map([...samples].map(([name, values]) => [name, median(values)]));
}

export function printTable(title, rows) {
  process.stdout.write(`\n${title}\n`);
  for (const [name, value] of rows) process.stdout.write(`  ${name.padEnd(48)} ${value}\n`);
}
