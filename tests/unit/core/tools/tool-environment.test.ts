/** Issue 19 §4: tool processes never see Cody's credentials; config shellEnvironment shapes the rest. */
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configSchema } from '../../../../src/core/config/config-schema.js';
import { mcpServerEnvironment } from '../../../../src/core/mcp/mcp-connection.js';
import { createToolRuntime } from '../../../../src/core/tools/runtime.js';
import { credentialVariables, toolEnvironment } from '../../../../src/core/tools/tool-environment.js';

const BASE: NodeJS.ProcessEnv = {
  PATH: '/usr/bin:/bin',
  HOME: '/home/me',
  LANG: 'C.UTF-8',
  EDITOR: 'vi',
  OPENAI_API_KEY: 'sk-openai-secret',
  ANTHROPIC_API_KEY: 'sk-ant-secret',
  GEMINI_API_KEY: 'gemini-secret',
  OPENROUTER_API_KEY: 'or-secret',
  GITHUB_TOKEN: 'ghp_secret',
  MY_SECRET: 'shh',
  db_password: 'hunter2',
  SORT_KEY: 'createdAt',
};

describe('tool environment', () => {
  it('by default keeps everything but credentials and *KEY*/*SECRET*/*TOKEN*/*PASSWORD* names', () => {
    expect(toolEnvironment(BASE)).toEqual({
      PATH: '/usr/bin:/bin',
      HOME: '/home/me',
      LANG: 'C.UTF-8',
      EDITOR: 'vi',
    });
  });

  it('knows every variable Cody reads a provider key from', () => {
    expect(credentialVariables()).toEqual(
      expect.arrayContaining([
        'OPENAI_API_KEY',
        'ANTHROPIC_API_KEY',
        'GEMINI_API_KEY',
        'GOOGLE_API_KEY',
        'OPENROUTER_API_KEY',
      ]),
    );
  });

  it('inherit core keeps only the basic variables; none keeps nothing; set comes last', () => {
    expect(toolEnvironment(BASE, { inherit: 'core' })).toEqual({
      PATH: '/usr/bin:/bin',
      HOME: '/home/me',
      LANG: 'C.UTF-8',
    });
    expect(toolEnvironment(BASE, { inherit: 'none', set: { CI: '1' } })).toEqual({ CI: '1' });
  });

  it('exclude takes wildcards, case-insensitive; ignoreDefaultExcludes never brings back Cody’s keys', () => {
    expect(toolEnvironment(BASE, { exclude: ['edit*', 'LA?G', 'la*'] })).toEqual({
      PATH: '/usr/bin:/bin',
      HOME: '/home/me',
    });
    const kept = toolEnvironment(BASE, { ignoreDefaultExcludes: true });
    expect(kept).toMatchObject({ GITHUB_TOKEN: 'ghp_secret', SORT_KEY: 'createdAt', MY_SECRET: 'shh' });
    expect(kept.OPENAI_API_KEY).toBeUndefined();
    expect(kept.ANTHROPIC_API_KEY).toBeUndefined();
    expect(toolEnvironment(BASE, { set: { GITHUB_TOKEN: 'given on purpose' } }).GITHUB_TOKEN).toBe(
      'given on purpose',
    );
  });

  it('config.json shellEnvironment is validated', () => {
    expect(
      configSchema.safeParse({ shellEnvironment: { inherit: 'core', exclude: ['AWS_*'] } }).success,
    ).toBe(true);
    expect(configSchema.safeParse({ shellEnvironment: { inherit: 'some' } }).success).toBe(false);
    expect(configSchema.safeParse({ shellEnvironment: { inheritt: 'all' } }).success).toBe(false);
    expect(configSchema.safeParse({ safeCommands: ['ls', 'git status'] }).success).toBe(true);
    expect(configSchema.safeParse({ safeCommands: ['  '] }).success).toBe(false);
  });
});

describe('tool processes', () => {
  const saved = { ...process.env };
  let root: string | undefined;
  afterEach(async () => {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('a shell command sees no key, token or secret of Cody’s environment', async () => {
    Object.assign(process.env, {
      OPENAI_API_KEY: 'sk-shell-leak-1',
      ANTHROPIC_API_KEY: 'sk-ant-shell-leak-2',
      MY_SECRET: 'shell-leak-3',
      GITHUB_TOKEN: 'shell-leak-4',
      VISIBLE_SETTING: 'still-here',
    });
    root = await realpath(await mkdtemp(join(tmpdir(), 'cody-env-')));
    const tools = createToolRuntime({
      cwd: root,
      policy: 'full-auto',
      detectSandbox: () => ({ available: false, why: 'none' }),
    });
    const result = await tools.run(
      { type: 'function_call', name: 'shell', arguments: '{"command":"env"}', call_id: 'c1' },
      {},
    );
    expect(result.output).toContain('VISIBLE_SETTING=still-here');
    expect(result.output).not.toMatch(/shell-leak|OPENAI_API_KEY|ANTHROPIC_API_KEY|MY_SECRET|GITHUB_TOKEN/);
  });

  it('an MCP stdio server starts without them, unless its own env gives one', () => {
    Object.assign(process.env, { OPENAI_API_KEY: 'sk-mcp-leak', MY_SECRET: 'mcp-leak' });
    const env = mcpServerEnvironment({ SERVICE_TOKEN: 'configured' });
    expect(env.PATH).toBe(process.env.PATH);
    expect(env.SERVICE_TOKEN).toBe('configured');
    expect(JSON.stringify(env)).not.toContain('leak');
  });
});
