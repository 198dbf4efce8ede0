/** The one warning a rollout with bytes that are not UTF-8 gets (they are read as U+FFFD, not refused). */
export function invalidUtf8Warning(filePath: string, line: number): string {
  return `${filePath}:${line}: not valid UTF-8; the bad bytes are read as \u{FFFD} (the first such line; the file is unchanged).`;
}
