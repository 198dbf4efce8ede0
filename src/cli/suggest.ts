/** "Did you mean …?" for mistyped commands: the closest candidate by edit distance, if close enough. */

/** Optimal-string-alignment distance: insertions, deletions, substitutions and adjacent swaps cost 1. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const columns = b.length + 1;
  const table: number[][] = Array.from({ length: rows }, (_, row) =>
    Array.from({ length: columns }, (_, column) => (row === 0 ? column : column === 0 ? row : 0)),
  );
  const at = (row: number, column: number): number => table[row]?.[column] ?? Number.POSITIVE_INFINITY;
  for (let row = 1; row < rows; row += 1) {
    for (let column = 1; column < columns; column += 1) {
      const cost = a[row - 1] === b[column - 1] ? 0 : 1;
      let best = Math.min(at(row - 1, column) + 1, at(row, column - 1) + 1, at(row - 1, column - 1) + cost);
      if (row > 1 && column > 1 && a[row - 1] === b[column - 2] && a[row - 2] === b[column - 1])
        best = Math.min(best, at(row - 2, column - 2) + 1);
      const line = table[row];
      if (line) line[column] = best;
    }
  }
  return at(a.length, b.length);
}

/**
 * The candidate closest to `word` when it is plausibly a typo of it: within 1 edit for short words, 2 for
 * longer ones, or a prefix of exactly one candidate.
 */
export function closestMatch(word: string, candidates: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  const byPrefix = candidates.filter((candidate) => candidate.startsWith(lower));
  if (lower.length >= 2 && byPrefix.length === 1) return byPrefix[0];
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const distance = editDistance(lower, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  const allowed = lower.length <= 3 ? 1 : 2;
  return bestDistance <= allowed ? best : undefined;
}
