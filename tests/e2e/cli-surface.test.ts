/**
 * Issue 21, the command-line surface: `cody chat --provider/--api/--model` choose for one conversation,
 * `cody --help` tells how to start the REPL, and the smaller fixes to messages and listings.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.js';
import { codyInProcess } from './in-process.js';

const CONFIG = { provider: 'openai', api: 'responses', model: 'gpt-4o-mini' };

describe('the command-line surface (issue 21)', () => {
  let harness: Harness;
  const lastRequest = (): string => {
    const request = harness.server.modelRequests().at(-1);
    return `${request?.api ?? ''} ${request?.model ?? ''}`;
  };
  beforeEach(async () => {
    harness = await createHarness();
    await harness.writeConfig(CONFIG);
  });
  afterEach(async () => {
    await harness.close();
  });

  it('cody chat --provider --api --model choose for that conversation only', async () => {
    const configPath = join(harness.env.CODY_HOME ?? '', 'config.json');
    const before = await readFile(configPath, 'utf8');
    const run = await harness.cody([
      'chat',
      '--provider',
      'openai',
      '--api',
      'chat',
      '--model',
      'gpt-4o',
      'hi',
    ]);
    expect(run.code).toBe(0);
    expect(lastRequest()).toBe('openai-chat gpt-4o');
    // The conversation keeps it (its rollout recorded it); config.json and new conversations do not.
    await harness.cody(['chat', 'again']);
    expect(lastRequest()).toBe('openai-chat gpt-4o');
    expect(await readFile(configPath, 'utf8')).toBe(before);
    await harness.cody(['new']);
    await harness.cody(['chat', 'fresh']);
    expect(lastRequest()).toBe('openai-responses gpt-4o-mini');
    // --model alone keeps the provider and API of the conversation.
    await harness.cody(['chat', '--model', 'gpt-4.1', 'one more']);
    expect(lastRequest()).toBe('openai-responses gpt-4.1');
    const status = await harness.cody(['status']);
    expect(status.stdout).toContain('gpt-4.1');
    // A typo is one usage line, before anything is sent.
    const count = harness.server.modelRequests().length;
    const bad = await harness.cody(['chat', '--provider', 'opneai', 'x']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("Unknown provider 'opneai'");
    expect(harness.server.modelRequests()).toHaveLength(count);
  });

  it('cody --help mentions the REPL, -c, --resume and --approval', async () => {
    const help = await harness.cody(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('REPL');
    expect(help.stdout).toMatch(/cody -c, --continue +continue the most recent conversation/);
    expect(help.stdout).toContain('cody --resume [id]');
    expect(help.stdout).toContain('--approval <policy>');
    const chatHelp = await harness.cody(['chat', '--help']);
    expect(chatHelp.stdout).toContain('--model <model>');
    expect(chatHelp.stdout).toContain('--provider <provider>');
    expect(chatHelp.stdout).toContain('--api <api>');
  });

  it('completes --approval values and provider names in bash (not file names)', async () => {
    const complete = async (words: string[]): Promise<string> => {
      const line = words.map((word) => `'${word}'`).join(' ');
      const run = await harness.shell(
        `eval "$($CODY completion bash)"; COMP_WORDS=(${line}); COMP_CWORD=${words.length - 1}; _cody; echo "\${COMPREPLY[*]}"`,
      );
      return run.stdout.trim();
    };
    expect(await complete(['cody', 'chat', '--approval', 'f'])).toBe('full-auto');
    expect(await complete(['cody', '--approval', ''])).toBe('read-only ask auto-edit full-auto');
    expect(await complete(['cody', 'set-provider', 'o'])).toBe('openai openrouter ollama');
    expect(await complete(['cody', 'chat', '--provider', 'an'])).toBe('anthropic');
    const zsh = (await harness.cody(['completion', 'zsh'])).stdout;
    expect(zsh).toContain('--approval) compadd -- read-only ask auto-edit full-auto');
    expect(zsh).toContain('set-provider) compadd -- openai anthropic google');
    const fish = (await harness.cody(['completion', 'fish'])).stdout;
    expect(fish).toContain("complete -c cody -l 'approval' -x -a 'read-only ask auto-edit full-auto'");
    expect(fish).toContain("__fish_seen_subcommand_from set-provider' -a 'openai anthropic google");
  });

  it('suggests the provider meant, names cody auth login for a missing key, shows the HTTP status of a retry', async () => {
    const typo = await harness.cody(['set-provider', 'opneai']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("Unknown provider 'opneai'. Did you mean 'openai'?");

    const noKey = await harness.cody(['chat', '--provider', 'anthropic', 'hi'], {
      env: { ANTHROPIC_API_KEY: undefined },
    });
    expect(noKey.code).not.toBe(0);
    expect(noKey.stderr).toContain('cody auth login anthropic');

    await harness.writeConfig({ ...CONFIG, retry: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 1 } });
    harness.server.enqueue({ type: 'error', status: 503 }, { type: 'reply', text: 'back\n' });
    const retried = await harness.cody(['chat', 'retry please']);
    expect(retried.code).toBe(0);
    expect(retried.stderr).toMatch(/Retrying \(1\/1\) in \d+\.\d s: HTTP 503 · /);
  });

  it('cody serve --help says where the token is and shows a curl example', async () => {
    const help = await harness.cody(['serve', '--help']);
    expect(help.stdout).toContain('$CODY_HOME/serve-token');
    expect(help.stdout).toMatch(
      /curl -s -H "Authorization: Bearer \$TOKEN" -X POST localhost:8080\/conversations/,
    );
  });

  it('cody list at 30 columns keeps a (truncated) title', async () => {
    await codyInProcess(harness, ['chat', 'a question about zebras and their stripes']);
    const list = await harness.cody(['list'], { env: { COLUMNS: '30' } });
    const row = list.stdout.split('\n')[1] ?? '';
    expect(row.length).toBeLessThanOrEqual(30);
    expect(row).toMatch(/A question/);
  });
});
