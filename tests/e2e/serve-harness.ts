/** Spawns `bin/cody serve --port 0` with the harness's CODY_HOME and gives a real HTTP + SSE client for it. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { validateAnswer, validateEvent } from '../server/openapi-validator.js';
import { apiClient, type ApiClient } from '../server/sse-client.js';
import { CODY_BIN, type Harness } from './harness.js';

export interface ServeProcess {
  url: string;
  token: string;
  api: ApiClient;
  child: ChildProcess;
  stderr(): string;
  /** Sends the signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export async function startServe(harness: Harness, args: string[] = []): Promise<ServeProcess> {
  const child = spawn(process.execPath, [CODY_BIN, 'serve', '--port', '0', ...args], {
    cwd: harness.home,
    env: harness.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(stderr);
      if (match?.[1]) resolve(match[1]);
    });
    void exited.then((code) => reject(new Error(`cody serve exited ${code}: ${stdout}${stderr}`)));
  });
  const token = (await readFile(join(harness.env.CODY_HOME ?? '', 'serve-token'), 'utf8')).trim();
  return {
    url,
    token,
    // Every answer and event any serve test receives is checked against openapi.json.
    api: apiClient(url, token, { answer: validateAnswer, event: validateEvent }),
    child,
    stderr: () => stderr,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}
