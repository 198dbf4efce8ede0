/**
 * The library as a new user gets it: `npm pack`, the tarball installed into an empty project (offline:
 * the package needs nothing from the registry), and the README's "Use it as a library" example run as
 * written against the fake provider — a streamed reply, a tool call approved in code, `cody.list()`.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, linesOfType, REPO_ROOT, type Harness } from './harness.js';

const run = promisify(execFile);

/** Runs the installed command with stdin closed (as in a script), so `cody chat` does not wait for it. */
function runCommand(
  file: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve({ stdout, stderr })
        : reject(new Error(`${args.join(' ')}: exit ${code}: ${stderr}`)),
    );
  });
}

/** The first ```js block under the README's "Use it as a library" heading, exactly as documented. */
async function readmeExample(): Promise<string> {
  const readme = await readFile(join(REPO_ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Use it as a library'));
  const match = /```js\n([\s\S]*?)```/.exec(section);
  if (!match?.[1]) throw new Error('README has no example under "Use it as a library"');
  return match[1];
}

describe('the library from an installed tarball (e2e)', () => {
  let harness: Harness;
  let project: string;

  beforeAll(async () => {
    harness = await createHarness();
    project = join(harness.home, 'consumer');
    await mkdir(project, { recursive: true });
    const { stdout } = await run(
      'npm',
      ['pack', '--ignore-scripts', '--json', '--pack-destination', harness.home],
      { cwd: REPO_ROOT },
    );
    const [packed] = JSON.parse(stdout) as Array<{ filename: string }>;
    await writeFile(
      join(project, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
    );
    await run(
      'npm',
      [
        'install',
        '--offline',
        '--no-audit',
        '--no-fund',
        '--ignore-scripts',
        join(harness.home, packed?.filename ?? 'missing.tgz'),
      ],
      { cwd: project },
    );
  }, 120_000);

  afterAll(async () => {
    await harness.close();
  });

  it('installs with nothing else and runs the README example: reply, approval in code, list', async () => {
    expect((await readdir(join(project, 'node_modules'))).filter((name) => !name.startsWith('.'))).toEqual([
      'cody',
    ]);
    await writeFile(join(project, 'example.mjs'), await readmeExample());
    harness.server.enqueue(
      { type: 'reply', toolCalls: [{ id: 'call_1', name: 'shell', arguments: { command: 'printf hello' } }] },
      { type: 'reply', text: 'It printed hello.' },
    );

    const { stdout, stderr } = await run(process.execPath, ['example.mjs'], {
      cwd: project,
      env: harness.env,
    });

    expect(stderr).toMatch(/^approving shell: /m);
    expect(stdout).toContain('It printed hello.');
    const id = /this one is (\S+)/.exec(stdout)?.[1] ?? '';
    expect(stdout).toContain('1 conversation(s)');
    const rollout = join(harness.env.CODY_HOME ?? '', 'conversations', `${id}.jsonl`);
    const items = linesOfType((await readFile(rollout, 'utf8')).trim().split('\n'), 'response_item').map(
      (line) => line.payload as Record<string, unknown>,
    );
    expect(items.find((item) => item.type === 'function_call')).toMatchObject({ name: 'shell' });
    expect(String(items.find((item) => item.type === 'function_call_output')?.output)).toContain('hello');
    // The request the model got carries the call and its output (Chat Completions shape).
    const last = harness.server.modelRequests().at(-1);
    expect(JSON.stringify(last?.body)).toContain('"role":"tool"');
  });

  it('refuses a bad selection with a typed error before writing anything', async () => {
    const script = [
      "import { createCody, CodyError } from 'cody';",
      'const cody = createCody({ env: process.env });',
      "try { await cody.create({ provider: 'nope' }); } catch (error) {",
      '  console.log(error instanceof CodyError, error.kind, error.message);',
      '}',
    ].join('\n');
    await writeFile(join(project, 'bad.mjs'), script);
    const home = join(harness.home, 'untouched-home');
    const { stdout } = await run(process.execPath, ['bad.mjs'], {
      cwd: project,
      env: { ...harness.env, CODY_HOME: home },
    });
    expect(stdout).toMatch(/^true usage Unknown provider 'nope'/);
    await expect(readdir(home)).rejects.toThrow(/ENOENT/);
  });

  it('installs a working cody command: --version, a chat turn, bare list with a config file', async () => {
    const bin = join(project, 'node_modules', '.bin', 'cody');
    const home = join(harness.home, 'installed-cli-home');
    const env = { ...harness.env, CODY_HOME: home };
    const { version } = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as {
      version: string;
    };
    expect((await runCommand(bin, ['--version'], { cwd: project, env })).stdout).toBe(`${version}\n`);
    harness.server.enqueue({ type: 'reply', text: 'Installed and answering.' });
    const chat = await runCommand(bin, ['chat', 'are you installed?'], { cwd: project, env });
    expect(chat.stdout).toContain('Installed and answering.');
    // set-provider writes a config file: bare `cody list` then validates it (bare-list-config.js).
    await runCommand(bin, ['set-provider', 'anthropic'], { cwd: project, env });
    const listed = await runCommand(bin, ['list'], { cwd: project, env });
    expect(listed.stdout).toMatch(/are you installed/i);
  });
});
