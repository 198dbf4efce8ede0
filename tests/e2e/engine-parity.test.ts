/**
 * One engine for every front end (issue 20): the same config.json (redaction, an MCP server, dangerous
 * commands, no sandbox, a shell timeout, the approval policy, a model override) and the same scripted
 * turn through `cody chat` (spawned), the library (in process) and `cody serve` (spawned) produce the
 * same requests on the wire and the same rollout lines, up to ids and timestamps. Before createCody
 * turned config.json into the runtime in one place, the library and the server ignored all but the
 * policy and the model: no MCP tools in the request, the dangerous command ran, the shell never timed
 * out, and the rollout kept the secret.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCody } from '../../src/index.js';
import { CLI_VERSION } from '../../src/cli/version.js';
import { createHarness, type Harness } from './harness.js';
import { collectRun, type Run } from './parity-helpers.js';
import { startServe } from './serve-harness.js';
import { EVERYTHING } from './tool-fixtures.js';

const CONFIG = {
  provider: 'openai',
  api: 'chat',
  model: 'gpt-4.1-mini',
  approval: 'full-auto',
  redact: ['PARITY-[0-9]+'],
  dangerousCommands: ['parity-danger'],
  sandbox: { enabled: false },
  shellTimeoutMs: 500,
  mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } },
};

const MESSAGE = 'please run the parity checks';

/** The scripted turn: four calls (a plain one, a dangerous one, one that outlives the timeout, MCP), then a reply. */
function script(harness: Harness): void {
  harness.server.enqueue(
    {
      type: 'reply',
      toolCalls: [
        { id: 'call_plain', name: 'shell', arguments: { command: 'echo plain PARITY-1234' } },
        { id: 'call_danger', name: 'shell', arguments: { command: 'echo parity-danger' } },
        { id: 'call_slow', name: 'shell', arguments: { command: 'sleep 5; echo finished' } },
        { id: 'call_mcp', name: 'everything__echo', arguments: { message: 'mcp PARITY-42' } },
      ],
    },
    { type: 'reply', text: 'All done, PARITY-7.' },
  );
}

describe('one engine for every front end', () => {
  let harness: Harness;
  beforeEach(async () => {
    harness = await createHarness();
    await harness.writeConfig(CONFIG);
  });
  afterEach(async () => {
    await harness.close();
  });

  const collect = (id: string): Promise<Run> => collectRun(harness, id);

  it('sends the same requests and records the same rollout through cody chat, the library and cody serve', async () => {
    // cody chat, spawned, stdin not a terminal (nobody to ask).
    script(harness);
    const chat = await harness.cody(['chat', '--json', MESSAGE]);
    expect(chat.code, chat.stderr).toBe(0);
    const cli = await collect(String((JSON.parse(chat.stdout) as { conversationId: string }).conversationId));

    // The library, in process, with nobody to ask either.
    script(harness);
    const cody = createCody({
      home: harness.env.CODY_HOME,
      env: harness.env,
      cwd: harness.home,
      canAsk: false,
      version: CLI_VERSION,
    });
    const conversation = await cody.create();
    const events = [];
    for await (const event of conversation.submit(MESSAGE)) events.push(event);
    expect(events.at(-1)).toMatchObject({ type: 'turn-complete', status: 'completed' });
    await cody.close();
    const library = await collect(conversation.id);

    // cody serve, spawned, no client attached to its events (nobody to ask).
    script(harness);
    const served = await startServe(harness);
    try {
      const created = await served.api.request('POST', '/conversations', {});
      expect(created.status, created.text).toBe(201);
      const id = String(created.json.id);
      const accepted = await served.api.request('POST', `/conversations/${id}/messages`, { text: MESSAGE });
      expect(accepted.status, accepted.text).toBe(202);
      const started = Date.now();
      while (Date.now() - started < 40_000) {
        const state = await served.api.request('GET', `/conversations/${id}/state`);
        if (state.json.state === 'Idle' && harness.server.modelRequests('openai-chat').length === 2) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const server = await collect(id);

      // What config.json asked for reached the wire and the rollout at all (else parity proves nothing).
      const [first, second] = cli.requests as Array<{
        model: string;
        tools: Array<{ function: { name: string } }>;
        messages: unknown[];
      }>;
      expect(first?.model).toBe('gpt-4.1-mini');
      expect(first?.tools.map((tool) => tool.function.name)).toContain('everything__echo');
      const outputs = JSON.stringify(second?.messages);
      expect(outputs).toContain('plain PARITY-1234');
      expect(outputs).toContain(
        '(the command matches parity-danger: echo parity-danger) and nobody can approve',
      );
      expect(outputs).toContain('Timed out after <duration>; the command was killed');
      expect(outputs).not.toContain('finished\\n');
      expect(outputs).toContain('mcp PARITY-42');
      const recorded = JSON.stringify(cli.rollout);
      expect(recorded).not.toMatch(/PARITY-\d/);
      expect(recorded).toContain('[REDACTED]');

      expect(library.requests).toEqual(cli.requests);
      expect(server.requests).toEqual(cli.requests);
      expect(library.rollout).toEqual(cli.rollout);
      expect(server.rollout).toEqual(cli.rollout);
    } finally {
      await served.stop();
    }
  }, 120_000);
});
