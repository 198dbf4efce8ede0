/**
 * A check of redaction that does not share its code: the text is cut at each `[REDACTED]`, its gaps
 * (spaces, colons, line breaks) dropped, and each piece read plain, as base64 from each of its first four
 * characters and as hex from each of its first two; a secret counts as readable when any `window` bytes
 * in a row of it appear in one of those readings.
 */
const REDACTED = '[REDACTED]';

export function readableSecrets(text: string, secrets: readonly string[], window = 8): string[] {
  const pieces = text.split(REDACTED).map((piece) => piece.replace(/[\s:]/g, ''));
  const readings = pieces.flatMap((piece) => [
    piece,
    ...[0, 1, 2, 3].map((shift) => Buffer.from(piece.slice(shift), 'base64').toString('latin1')),
    ...[0, 1].map((shift) => Buffer.from(piece.slice(shift), 'hex').toString('latin1')),
  ]);
  return secrets.filter((secret) =>
    Array.from({ length: secret.length - window + 1 }, (_, index) =>
      secret.slice(index, index + window),
    ).some((part) => readings.some((reading) => reading.includes(part))),
  );
}
