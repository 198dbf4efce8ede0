/** Small helpers shared by the benchmarks: medians and plain tables. */

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function printTable(title, rows) {
  process.stdout.write(`\n${title}\n`);
  for (const [name, value] of rows) process.stdout.write(`  ${name.padEnd(48)} ${value}\n`);
}
