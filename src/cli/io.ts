/** The streams and environment a command runs with; tests pass fakes, `bin/cody` passes the process's. */
export interface OutputStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface InputStream extends AsyncIterable<Buffer | string> {
  isTTY?: boolean;
}

export interface Io {
  stdout: OutputStream;
  stderr: OutputStream;
  stdin: InputStream;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
}

/**
 * The process's streams, each made only when a command first uses it: Node builds `process.stdin` and
 * friends on first access, and stdin alone (a stream over /dev/null, a pipe or a terminal) cost ~2 ms of
 * every `cody list`, which never reads it.
 */
export function processIo(): Io {
  return {
    get stdout() {
      return process.stdout;
    },
    get stderr() {
      return process.stderr;
    },
    get stdin() {
      return process.stdin;
    },
    env: process.env,
    cwd: process.cwd(),
  };
}

/** Colour only on a terminal, never with NO_COLOR (https://no-color.org), always with FORCE_COLOR. */
export function useColor(stream: OutputStream, env: Io['env']): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  return stream.isTTY === true && env.TERM !== 'dumb';
}

/** Reads all of stdin as UTF-8 text. */
export async function readAll(stream: InputStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}
