/** config.json is read defensively (issue 7.11): each hostile file is one clear refusal, never a hang. */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../../src/core/config/config.js';
import { jsonDepth, MAX_CONFIG_BYTES } from '../../../../src/core/config/read-config-file.js';

describe('loadConfig on hostile files', () => {
  let directory: string;
  let file: string;
  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'cody-config-'));
    file = join(directory, 'config.json');
  });
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  const refusal = async (pattern: RegExp): Promise<void> => {
    const error = await loadConfig(file).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ kind: 'usage' });
    expect((error as Error).message).toMatch(pattern);
    expect((error as Error).message).not.toContain('\n');
  };

  it.each([
    ['{"__proto__": {"polluted": true}, "provider": "openai"}', '__proto__'],
    ['{"constructor": "x"}', 'constructor'],
    ['{"provider": "openai", "model": "gpt-4o", "constructor": {"prototype": {}}}', 'constructor'],
    ['{"models": {"__proto__": {"contextWindow": 5}}}', 'models.__proto__'],
    ['{"mcpServers": {"x": {"command": "y", "env": {"constructor": "z"}}}}', 'mcpServers.x.env.constructor'],
    ['{"redact": [{"__proto__": 1}]}', 'redact[0].__proto__'],
  ])('refuses %s naming the key %s, and pollutes nothing', async (text, key) => {
    await writeFile(file, text);
    await refusal(new RegExp(`the key '${key.replace(/[.[\]]/g, '\\$&')}' is not allowed`));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).contextWindow).toBeUndefined();
  });

  it('reads a key that merely contains those words', async () => {
    await writeFile(file, '{"models": {"my-constructor-model": {"contextWindow": 5}}}');
    await expect(loadConfig(file)).resolves.toMatchObject({
      models: { 'my-constructor-model': { contextWindow: 5 } },
    });
  });

  it('refuses a symlink to /dev/zero without reading it', async () => {
    await symlink('/dev/zero', file);
    await refusal(/config\.json is a character device, not a regular file\. Fix or delete it\.$/);
  });

  it('refuses a FIFO without waiting for a writer', async () => {
    execFileSync('mkfifo', [file]);
    const started = Date.now();
    await refusal(/config\.json is a FIFO, not a regular file\./);
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('refuses a directory', async () => {
    await mkdir(file);
    await refusal(/config\.json is a directory, not a regular file\./);
  });

  it('refuses a file over the size cap', async () => {
    await writeFile(file, `{"model":"${'m'.repeat(MAX_CONFIG_BYTES)}"}`);
    await refusal(/byte limit/);
  });

  it('refuses 100,000 levels of nesting in one line', async () => {
    await writeFile(file, `{"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
    await refusal(/nests deeper than 64 levels/);
  });

  it('refuses invalid UTF-8', async () => {
    await writeFile(file, Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]));
    await refusal(/not valid UTF-8/);
  });

  it.each(['file:///etc/passwd', 'javascript:alert(1)', 'localhost:11434', 'not a url'])(
    'refuses a baseUrls entry %s at load',
    async (url) => {
      await writeFile(file, JSON.stringify({ baseUrls: { openai: url } }));
      await refusal(/'baseUrls\.openai'.*not an http\(s\) URL/);
    },
  );

  it('reads a config reached through a symlink to a regular file, and an absent one as empty', async () => {
    const real = join(directory, 'real.json');
    await writeFile(
      real,
      JSON.stringify({ provider: 'anthropic', baseUrls: { anthropic: 'https://example.test' } }),
    );
    expect(await loadConfig(file)).toEqual({});
    await symlink(real, file);
    expect(await loadConfig(file)).toMatchObject({ provider: 'anthropic' });
  });
});

describe('jsonDepth', () => {
  it('counts nesting outside strings only', () => {
    expect(jsonDepth('{"a":[1,{"b":2}]}')).toBe(3);
    expect(jsonDepth('{"a":"[[[[{{{{\\"]]]"}')).toBe(1);
    expect(jsonDepth('1')).toBe(0);
  });
});
