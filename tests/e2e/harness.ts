/**
 * Spawns the real `bin/cody.js` (built output) with a temporary CODY_HOME against the in-process fake
 * provider. Spawning is asynchronous so the fake server keeps serving while cody runs.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { FakeProviderServer } from '../fake-provider/server.js';

export const REPO_ROOT = resolve(import.meta.dirname, '../..');
export const CODY_BIN = join(REPO_ROOT, 'bin/cody.js');
/** A recognisable fake key, so tests can prove it is never written to disk. */
export const FAKE_KEYS = {
  OPENAI_API_KEY: 'sk-test-openai-SECRET-0001',
  ANTHROPIC_API_KEY: 'sk-ant-test-SECRET-0002',
  GEMINI_API_KEY: 'gemini-test-SECRET-0003',
} as const;

export interface CodyRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface Harness {
  home: string;
  server: FakeProviderServer;
  env: Record<string, string>;
  cody(
    args: string[],
    options?: {
      input?: string;
      env?: Record<string, string | undefined>;
      /** Called with all of stderr so far whenever more arrives (to act on a line while it runs). */
      onStderr?: (stderr: string) => void;
    },
  ): Promise<CodyRun>;
  shell(script: string, options?: { env?: Record<string, string | undefined> }): Promise<CodyRun>;
  rollout(id: string): Promise<string[]>;
  writeConfig(config: Record<string, unknown>): Promise<void>;
  close(): Promise<void>;
}

export async function createHarness(options: { chunkDelayMs?: number } = {}): Promise<Harness> {
  const home = await mkdtemp(join(tmpdir(), 'cody-e2e-'));
  const server = new FakeProviderServer(
    options.chunkDelayMs !== undefined ? { chunkDelayMs: options.chunkDelayMs } : {},
  );
  const url = await server.start();
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    CODY_HOME: join(home, '.cody'),
    NO_COLOR: '1',
    OPENAI_BASE_URL: `${url}/v1`,
    ANTHROPIC_BASE_URL: url,
    GOOGLE_GEMINI_BASE_URL: url,
    ...FAKE_KEYS,
  };
  const run = (
    command: string,
    args: string[],
    input: string | undefined,
    extra: Record<string, string | undefined> = {},
    onStderr?: (stderr: string) => void,
  ): Promise<CodyRun> =>
    new Promise((resolvePromise, reject) => {
      const merged: Record<string, string> = { ...env };
      for (const [key, value] of Object.entries(extra)) {
        if (value === undefined) delete merged[key];
        else merged[key] = value;
      }
      const child = spawn(command, args, { cwd: home, env: merged, stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
        onStderr?.(stderr);
      });
      child.on('error', reject);
      child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
      if (input !== undefined) child.stdin.end(input);
      else child.stdin.end();
    });
  return {
    home,
    server,
    env,
    cody: (args, runOptions = {}) =>
      run(process.execPath, [CODY_BIN, ...args], runOptions.input, runOptions.env, runOptions.onStderr),
    shell: (script, runOptions = {}) =>
      run('bash', ['-c', script], undefined, { ...runOptions.env, CODY: `${process.execPath} ${CODY_BIN}` }),
    rollout: async (id) => {
      const text = await readFile(join(env.CODY_HOME ?? '', 'conversations', `${id}.jsonl`), 'utf8');
      return text.split('\n').filter((line) => line !== '');
    },
    writeConfig: async (config) => {
      await mkdir(env.CODY_HOME ?? '', { recursive: true, mode: 0o700 });
      await writeFile(join(env.CODY_HOME ?? '', 'config.json'), JSON.stringify(config), { mode: 0o600 });
    },
    close: async () => {
      await server.stop();
      await rm(home, { recursive: true, force: true });
    },
  };
}

/** Parsed rollout lines of one type. */
export function linesOfType(
  lines: string[],
  type: string,
): Array<{ timestamp: string; type: string; payload: Record<string, unknown> }> {
  return lines
    .map((line) => JSON.parse(line) as { timestamp: string; type: string; payload: Record<string, unknown> })
    .filter((line) => line.type === type);
}
