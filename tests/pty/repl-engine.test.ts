/**
 * The REPL runs on the same engine as the library (issue 20): with one config.json (a model override,
 * redaction, an MCP server, full-auto) and one scripted turn, the REPL in a real terminal and the
 * library in process send the same requests and record the same rollout lines, up to ids and times.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCody } from '../../src/index.js';
import { CLI_VERSION } from '../../src/cli/version.js';
import { createHarness, type Harness } from '../e2e/harness.js';
import { EVERYTHING } from '../e2e/tool-fixtures.js';
import { startTmux, type TmuxSession } from './tmux.js';

const CONFIG = {
  provider: 'openai',
  api: 'chat',
  model: 'gpt-4o-mini',
  approval: 'full-auto',
  redact: ['PARITY-[0-9]+'],
  sandbox: { enabled: false },
  mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } },
};
const MESSAGE = 'check PARITY-5 please';

function script(harness: Harness): void {
  harness.server.enqueue(
    {
      type: 'reply',
      toolCalls: [{ id: 'call_mcp', name: 'everything__echo', arguments: { message: 'mcp PARITY-42' } }],
    },
    { type: 'reply', text: 'Done.\n' },
  );
}

const ID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g;

async function collect(harness: Harness, id: string): Promise<{ requests: unknown; rollout: unknown }> {
  const requests = harness.server.modelRequests('openai-chat').map((request) => request.body);
  harness.server.reset();
  const rollout = (await harness.rollout(id)).map((line) => JSON.parse(line) as unknown);
  const normalize = (value: unknown): unknown =>
    JSON.parse(JSON.stringify(value).replace(ID, '<id>').replace(TIME, '<time>'));
  return { requests: normalize(requests), rollout: normalize(rollout) };
}

describe('the REPL on the shared engine (tmux)', () => {
  let harness: Harness;
  let tmux: TmuxSession | undefined;
  beforeEach(async () => {
    harness = await createHarness();
    await harness.writeConfig(CONFIG);
  });
  afterEach(async () => {
    await tmux?.kill();
    tmux = undefined;
    await harness.close();
  });

  it('sends what the library sends and records what it records', async () => {
    script(harness);
    const env: Record<string, string> = { ...harness.env, TERM: 'xterm-256color' };
    tmux = await startTmux({ args: [], env, cwd: harness.home });
    const banner = await tmux.waitFor(/conversation ([0-9a-f-]{36})/);
    const replId = /conversation ([0-9a-f-]{36})/.exec(banner)?.[1] ?? '';
    await tmux.waitFor('› ');
    await tmux.send(MESSAGE, { literal: true });
    await tmux.send('Enter');
    await tmux.waitFor('Done.', 20_000);
    // The status line: the turn no longer reads keys (its type-ahead would take Ctrl-D as text to keep).
    await tmux.waitFor(/\$0\.\d{4}/, 20_000);
    await tmux.send('C-d');
    await tmux.waitForExit();
    const repl = await collect(harness, replId);

    script(harness);
    const cody = createCody({ env: harness.env, cwd: harness.home, canAsk: false, version: CLI_VERSION });
    const conversation = await cody.create();
    for await (const event of conversation.submit(MESSAGE)) void event;
    await cody.close();
    const library = await collect(harness, conversation.id);

    const [first, second] = repl.requests as Array<{ model: string; tools: unknown[]; messages: unknown[] }>;
    expect(first?.model).toBe('gpt-4o-mini');
    expect(JSON.stringify(first?.tools)).toContain('everything__echo');
    expect(JSON.stringify(second?.messages)).toContain('Echo: mcp PARITY-42');
    expect(JSON.stringify(repl.rollout)).not.toMatch(/PARITY-\d/);
    expect(JSON.stringify(repl.rollout)).toContain('[REDACTED]');
    expect(library.requests).toEqual(repl.requests);
    expect(library.rollout).toEqual(repl.rollout);
  }, 60_000);
});
