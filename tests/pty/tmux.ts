/**
 * Drives `bin/cody` in a real pseudo-terminal through tmux (a private server per test: its own socket),
 * so tests see exactly what a person sees: send keys, capture the screen, resize the window.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CODY_BIN } from '../e2e/harness.js';

const run = promisify(execFile);

export interface TmuxSession {
  /** Keys as tmux names them ('Enter', 'C-c', 'Escape', 'Tab') or literal text with `literal`. */
  send(keys: string, options?: { literal?: boolean }): Promise<void>;
  /** Raw bytes as a terminal would send them (`send-keys -H`), e.g. the kitty encoding of Shift+Enter. */
  sendBytes(bytes: string): Promise<void>;
  /** Text as if pasted by a terminal that supports bracketed paste. */
  paste(text: string): Promise<void>;
  screen(): Promise<string>;
  /** The screen with its colours and attributes, as SGR escape sequences. */
  styledScreen(): Promise<string>;
  /** Waits until the screen matches; throws with the screen when it does not in time. */
  waitFor(pattern: RegExp | string, timeoutMs?: number): Promise<string>;
  resize(columns: number, rows: number): Promise<void>;
  /** The exit status of cody once it has ended (the pane stays open), or undefined while it runs. */
  exitStatus(): Promise<number | undefined>;
  waitForExit(timeoutMs?: number): Promise<number>;
  kill(): Promise<void>;
  /** The pane's terminal device (for `stty -F`). */
  tty(): Promise<string>;
  /** Everything cody wrote to the terminal so far, escapes and all (with `recordOutput`). */
  output(): Promise<string>;
  /** The process id of cody (the pane's shell's child). */
  codyPid(): Promise<number>;
}

let counter = 0;

export async function startTmux(options: {
  args: string[];
  env: Record<string, string>;
  cwd: string;
  columns?: number;
  rows?: number;
  /** Afterwards print `EXIT=<status>` and the terminal's modes (`stty -a`), as a shell prompt would see them. */
  reportAfter?: boolean;
  /** Send cody's stderr to this file instead of the terminal (stdin and stdout stay the terminal). */
  stderrTo?: string;
  /** Record every byte written to the terminal (tmux pipe-pane), from before cody starts. */
  recordOutput?: boolean;
}): Promise<TmuxSession> {
  counter += 1;
  const socket = `cody-test-${process.pid}-${counter}`;
  const tmux = async (...args: string[]): Promise<string> =>
    (await run('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' })).stdout;
  const envArgs = Object.entries(options.env).map(([key, value]) => `${key}=${value}`);
  const quoted = ['env', '-i', ...envArgs, process.execPath, CODY_BIN, ...options.args]
    .map((word) => `'${word.replace(/'/g, "'\\''")}'`)
    .join(' ');
  // The shell writes cody's exit status to a file: tmux sometimes marks a pane dead without ever saying
  // how it ended (seen under load), which would read as a hang.
  const statusFile = join(tmpdir(), `${socket}.status`);
  const outputFile = join(tmpdir(), `${socket}.output`);
  const after = options.reportAfter ? `; echo "EXIT=$status"; stty -a` : '';
  const redirect = options.stderrTo !== undefined ? ` 2>'${options.stderrTo.replace(/'/g, "'\\''")}'` : '';
  const script = `${quoted}${redirect}; status=$?; echo "$status" > '${statusFile}'${after}; exit "$status"`;
  const command = `bash -c '${script.replace(/'/g, "'\\''")}'`;
  // Options first, in the same command, so a cody that exits at once still leaves its status behind.
  await tmux(
    'start-server',
    ';',
    'set-option',
    '-g',
    'remain-on-exit',
    'on',
    ';',
    'set-option',
    '-g',
    'escape-time',
    '0',
    ';',
    'new-session',
    '-d',
    '-s',
    'main',
    '-x',
    String(options.columns ?? 120),
    '-y',
    String(options.rows ?? 40),
    '-c',
    options.cwd,
    command,
    ...(options.recordOutput ? [';', 'pipe-pane', '-O', '-t', 'main', `cat > '${outputFile}'`] : []),
  );
  const screen = async (): Promise<string> => tmux('capture-pane', '-p', '-J', '-S', '-', '-t', 'main');
  const styledScreen = async (): Promise<string> =>
    tmux('capture-pane', '-p', '-e', '-J', '-S', '-', '-t', 'main');
  const exitStatus = async (): Promise<number | undefined> => {
    const written = await readFile(statusFile, 'utf8').catch(() => '');
    if (/^\d+\n$/.test(written)) return Number(written.trim());
    const [dead, status, signal] = (
      await tmux(
        'display-message',
        '-p',
        '-t',
        'main',
        '#{pane_dead}|#{pane_dead_status}|#{pane_dead_signal}',
      )
    )
      .trim()
      .split('|');
    if (dead !== '1') return undefined;
    // tmux may mark the pane dead a moment before it records how: keep polling until it says.
    if (status !== undefined && /^\d+$/.test(status)) return Number(status);
    if (signal !== undefined && /^\d+$/.test(signal)) return 128 + Number(signal);
    return undefined;
  };
  const session: TmuxSession = {
    send: async (keys, sendOptions = {}) => {
      await tmux('send-keys', '-t', 'main', ...(sendOptions.literal ? ['-l', keys] : [keys]));
    },
    sendBytes: async (bytes) => {
      const hex = [...Buffer.from(bytes, 'utf8')].map((byte) => byte.toString(16).padStart(2, '0'));
      await tmux('send-keys', '-t', 'main', '-H', ...hex);
    },
    paste: async (text) => {
      await tmux('set-buffer', '-b', 'p', text);
      await tmux('paste-buffer', '-p', '-b', 'p', '-t', 'main');
    },
    screen,
    styledScreen,
    waitFor: async (pattern, timeoutMs = 10_000) => {
      const deadline = Date.now() + timeoutMs;
      let last = '';
      while (Date.now() < deadline) {
        last = await screen();
        if (typeof pattern === 'string' ? last.includes(pattern) : pattern.test(last)) return last;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`screen never showed ${String(pattern)}; it shows:\n${last}`);
    },
    resize: async (columns, rows) => {
      await tmux('resize-window', '-t', 'main', '-x', String(columns), '-y', String(rows));
    },
    exitStatus,
    waitForExit: async (timeoutMs = 20_000) => {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const status = await exitStatus();
        if (status !== undefined) return status;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`cody did not exit; the screen shows:\n${await screen()}`);
    },
    kill: async () => {
      await tmux('kill-server').catch(() => undefined);
    },
    tty: async () => (await tmux('display-message', '-p', '-t', 'main', '#{pane_tty}')).trim(),
    output: async () => readFile(outputFile, 'utf8').catch(() => ''),
    codyPid: async () => {
      const shell = (await tmux('display-message', '-p', '-t', 'main', '#{pane_pid}')).trim();
      const { stdout } = await run('pgrep', ['-P', shell], { encoding: 'utf8' });
      return Number(stdout.trim().split('\n')[0]);
    },
  };
  return session;
}
