/** Reads a secret: from a prompt without echo on a terminal, or from stdin (whole, trimmed) in scripts. */
import { CodyError } from '../core/index.js';
import { type InputStream, type Io, readAll } from './io.js';

interface RawInput extends InputStream {
  setRawMode?: (mode: boolean) => unknown;
}

export async function readSecret(io: Io, prompt: string): Promise<string> {
  const stdin = io.stdin as RawInput;
  if (stdin.isTTY !== true || typeof stdin.setRawMode !== 'function') return (await readAll(io.stdin)).trim();
  io.stderr.write(prompt);
  stdin.setRawMode(true);
  let value = '';
  try {
    for await (const chunk of stdin) {
      for (const char of typeof chunk === 'string' ? chunk : chunk.toString('utf8')) {
        if (char === '\r' || char === '\n' || char === '\u0004') {
          io.stderr.write('\n');
          return value.trim();
        }
        if (char === '\u0003') {
          io.stderr.write('\n');
          throw new CodyError('Cancelled; nothing was saved.', 'interrupted');
        }
        if (char === '\u007f' || char === '\b') value = value.slice(0, -1);
        else if (char >= ' ') value += char;
      }
    }
  } finally {
    stdin.setRawMode(false);
  }
  io.stderr.write('\n');
  return value.trim();
}
