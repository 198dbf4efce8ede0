/**
 * Issue 21, the command-line surface: `cody chat --provider/--api/--model` choose for one conversation,
 * `cody --help` tells how to start the REPL, and the smaller fixes to messages and listings.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.js';

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
});
