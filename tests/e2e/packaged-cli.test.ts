/**
 * The CLI a user installs is the bundle: the files `npm pack` publishes, copied without any
 * node_modules beside them, run a chat turn on each kind of SDK against the fake provider.
 */
import { execFile, spawn } from 'node:child_process';
import { cp, mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, REPO_ROOT } from './harness.js';

const run = promisify(execFile);

describe('the published package (e2e)', () => {
  let harness: Harness;
  let bin: string;

  beforeAll(async () => {
    harness = await createHarness();
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: REPO_ROOT,
    });
    const [packed] = JSON.parse(stdout) as Array<{ files: Array<{ path: string }> }>;
    const installed = join(harness.home, 'installed', 'cody');
    for (const { path } of packed?.files ?? []) {
      await mkdir(dirname(join(installed, path)), { recursive: true });
      await cp(join(REPO_ROOT, path), join(installed, path));
    }
    bin = join(installed, 'bin', 'cody.js');
  });

  afterAll(async () => {
    await harness.close();
  });

  it('serves the web page it carries (dist/web) at /', async () => {
    const child = spawn(process.execPath, [bin, 'serve', '--port', '0'], {
      cwd: harness.home,
      env: harness.env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let stderr = '';
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
          stderr += chunk;
          const match = /listening on (http:\/\/\S+)/.exec(stderr);
          if (match?.[1]) resolve(match[1]);
        });
        child.once('exit', (code) => reject(new Error(`cody serve exited ${code}: ${stderr}`)));
      });
      const page = await fetch(`${url}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('/assets/app.js');
      const script = await fetch(`${url}/assets/app.js`);
      expect(script.status).toBe(200);
      expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('runs without node_modules: version, a turn on each SDK, list', async () => {
    const version = await harness.shell(`node ${bin} --version`);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    for (const [provider, api, model] of [
      ['openai', 'responses', 'gpt-4.1-mini'],
      ['anthropic', 'messages', 'claude-sonnet-4-6'],
      ['google', 'gemini', 'gemini-2.5-flash'],
    ] as const) {
      expect(
        (await harness.shell(`node ${bin} set-provider ${provider} --api ${api} --model ${model}`)).code,
      ).toBe(0);
      const turn = await harness.shell(`node ${bin} chat "packaged ${api}"`);
      expect(turn.stderr).not.toMatch(/error|cannot|not found/i);
      expect(turn.stdout).toContain(`packaged ${api}`);
      expect(turn.code).toBe(0);
    }
    expect(harness.server.modelRequests().map((request) => request.api)).toEqual([
      'openai-responses',
      'anthropic-messages',
      'gemini',
    ]);
    const list = await harness.shell(`node ${bin} list`);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/packaged responses/i);
  });

  it('leaves out what @google/genai needs only for Vertex AI and its Live API (stubbed)', async () => {
    const inputs = JSON.parse(
      await readFile(join(REPO_ROOT, 'dist', 'bundle', 'inputs.json'), 'utf8'),
    ) as Record<string, string[]>;
    const all = Object.values(inputs).flat();
    expect(all).toContain('node_modules/@google/genai/dist/node/index.mjs');
    expect(all.filter((module) => /^node_modules\/(google-auth-library|gaxios|ws)\//.test(module))).toEqual(
      [],
    );
    expect(all).toEqual(
      expect.arrayContaining(['scripts/stubs/google-auth-library.js', 'scripts/stubs/ws.js']),
    );
  });
});
