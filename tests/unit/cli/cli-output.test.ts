/**
 * What the list, resume, new, set-provider and show commands print, through `main` with fake streams on
 * a real temporary CODY_HOME (no process spawned, no model called).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.js';
import type { Io } from '../../../src/cli/io.js';

interface Captured {
  code: number;
  stdout: string;
  stderr: string;
}

describe('command output (fake streams, real files)', () => {
  let home: string;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'cody-cli-'));
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  async function cody(...args: string[]): Promise<Captured> {
    let stdout = '';
    let stderr = '';
    const io: Io = {
      stdout: { write: (chunk: string) => (stdout += chunk) },
      stderr: { write: (chunk: string) => (stderr += chunk) },
      stdin: { isTTY: false, [Symbol.asyncIterator]: async function* () {} },
      env: { CODY_HOME: join(home, '.cody'), NO_COLOR: '1' },
      cwd: home,
    };
    const code = await main(['node', 'cody', ...args], io);
    return { code, stdout, stderr };
  }

  it('lists nothing with a hint, then conversations with their metadata', async () => {
    const empty = await cody('list');
    expect(empty).toEqual({
      code: 0,
      stdout: 'No saved conversations. Start one with: cody new (or just cody chat "hello")\n',
      stderr: '',
    });
    expect(JSON.parse((await cody('list', '--json')).stdout)).toEqual([]);

    const first = (await cody('new')).stdout.trim();
    const second = (await cody('new', '--provider', 'anthropic')).stdout.trim();
    const listed = JSON.parse((await cody('list', '--json')).stdout) as Array<Record<string, unknown>>;
    expect(listed.map((entry) => entry.id).sort()).toEqual([first, second].sort());
    expect(listed.find((entry) => entry.id === second)).toMatchObject({
      provider: 'anthropic',
      api: 'anthropic-messages',
      model: 'claude-sonnet-5-5',
    });
    const table = (await cody('list')).stdout.split('\n');
    expect(table[0]).toMatch(/^ {2}ID +UPDATED +MODEL +MSGS +TITLE$/);
    const activeRow = table.find((row) => row.startsWith('* '));
    expect(second.startsWith(activeRow?.slice(2).split(' ')[0] ?? 'x')).toBe(true); // the active one
    expect((await cody('list', '--limit', '0')).code).toBe(2);
  });

  it('resumes by unique prefix, refuses ambiguous and unknown ids', async () => {
    const id = (await cody('new')).stdout.trim();
    await cody('new');
    const resumed = await cody('resume', id);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toBe(
      `✓ Resumed conversation: ${id}\n  provider: openai (openai-chat) · model: gpt-5.4 · 0 messages in context\n`,
    );
    expect((await readFile(join(home, '.cody', 'active'), 'utf8')).trim()).toBe(id);

    const ambiguous = await cody('resume', '0');
    expect(ambiguous.code).toBe(3);
    expect(ambiguous.stderr).toMatch(
      /^cody: Conversation prefix '0' is ambiguous: it matches 2 conversations/,
    );
    const unknown = await cody('resume', 'abcdef');
    expect(unknown).toEqual({
      code: 3,
      stdout: '',
      stderr: "cody: Conversation 'abcdef' not found. List available: cody list\n",
    });
  });

  it('validates set-provider and saves the choice', async () => {
    const set = await cody('set-provider', 'google', '--model', 'gemini-2.5-pro');
    expect(set).toEqual({
      code: 0,
      stdout: '✓ Provider set: google (gemini) · model: gemini-2.5-pro\n',
      stderr: '',
    });
    expect(JSON.parse(await readFile(join(home, '.cody', 'config.json'), 'utf8'))).toMatchObject({
      provider: 'google',
      api: 'gemini',
      model: 'gemini-2.5-pro',
    });
    const local = await cody(
      'set-provider',
      'openai',
      '--model',
      'my-finetune:8b',
      '--base-url',
      'http://localhost:11434/v1',
    );
    expect(local.code).toBe(0);
    expect(local.stderr).toMatch(/not in Cody's model catalogue; assuming an 8,192-token context window/);
    const bad = await cody('set-provider', 'openai', '--api', 'gemini');
    expect(bad).toEqual({
      code: 2,
      stdout: '',
      stderr: "cody: Provider 'openai' has no API 'gemini'. Choose one of: chat, responses.\n",
    });
  });

  it('reports usage errors with exit code 2 and no stack trace', async () => {
    const unknownCommand = await cody('lsit');
    expect(unknownCommand.code).toBe(2);
    expect(unknownCommand.stderr).not.toMatch(/\n\s+at /);
    const nothingToSend = await cody('chat');
    expect(nothingToSend).toMatchObject({
      code: 2,
      stderr: 'cody: Nothing to send: give a message (cody chat "hello") or pipe one on stdin.\n',
    });
    const noConversation = await cody('show');
    expect(noConversation.code).toBe(2);
    expect(noConversation.stderr).toMatch(/No active conversation/);
  });
});
