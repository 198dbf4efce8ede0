/**
 * The harder tool paths through `bin/cody`: Ctrl-C during a running shell command (the whole process
 * group killed, the output so far recorded as aborted, the history valid, resume works), and MCP tool
 * calls against the real reference server plus a server that crashes mid-call, on all four APIs.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commandEnded } from '../process-ended.js';
import { CODY_BIN, createHarness, type Harness, linesOfType } from './harness.js';
import { CRASHING_SERVER, EVERYTHING, makeRepo, PROVIDERS } from './tool-fixtures.js';
import { toolExchanges } from './wire-tools.js';

async function waitFor(check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('tools end to end: interrupt and MCP', () => {
  let harness: Harness;
  beforeEach(async () => {
    harness = await createHarness();
    await makeRepo(harness.home);
  });
  afterEach(async () => {
    await harness.close();
  });

  it('Ctrl-C during a shell command kills its process group, records the output so far, and resume works', async () => {
    const pidFile = join(harness.home, 'sleeper.pid');
    harness.server.enqueue({
      type: 'reply',
      toolCalls: [
        {
          id: 'call_long',
          name: 'shell',
          arguments: { command: `echo started; sleep 61.5 & echo $! > sleeper.pid; wait; echo never` },
        },
      ],
    });
    const child = spawn(process.execPath, [CODY_BIN, 'chat', '--auto-approve', 'run the long thing'], {
      cwd: harness.home,
      env: harness.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stderr.resume();
    child.stdout.resume();
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    await waitFor(() => existsSync(pidFile));
    child.kill('SIGINT');
    const code = await exited;
    expect(code).toBe(130);
    // Inside the sandbox's PID namespace `$!` is not a pid out here: find the sleeper by its command line.
    expect(await commandEnded(['sleep', '61.5'])).toBe(true);

    const id = (await readFile(join(harness.env.CODY_HOME ?? '', 'active'), 'utf8')).trim();
    const items = linesOfType(await harness.rollout(id), 'response_item').map((line) => line.payload);
    const output = items.find((item) => item.type === 'function_call_output');
    expect(output?.call_id).toBe('call_long');
    expect(String(output?.output)).toMatch(/^Aborted by the user; output so far:\n[\s\S]*started\n/);
    expect(String(output?.output)).not.toContain('never');

    // The history is valid: the next turn carries the call and its output.
    const next = await harness.cody(['chat', 'what happened?']);
    expect(next.code).toBe(0);
    const last = harness.server.modelRequests().at(-1);
    if (!last) throw new Error('no request');
    expect(last.rejected).toBeUndefined();
    const { calls, outputs } = toolExchanges(last);
    expect(calls.map((call) => call.id)).toEqual(['call_long']);
    expect(outputs.map((item) => item.id)).toEqual(['call_long']);
  });

  for (const provider of PROVIDERS) {
    it(`calls an MCP tool end to end and survives a crashing MCP server on ${provider.api}`, async () => {
      await harness.writeConfig({
        mcpServers: {
          everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
          crashy: { command: process.execPath, args: [CRASHING_SERVER] },
        },
      });
      expect((await harness.cody(['set-provider', ...provider.args])).code).toBe(0);
      harness.server.enqueue(
        {
          type: 'reply',
          toolCalls: [
            { id: 'call_echo', name: 'everything__echo', arguments: { message: 'hello mcp' } },
            { id: 'call_crash', name: 'crashy__crash', arguments: {} },
            { id: 'call_after', name: 'crashy__fail', arguments: {} },
          ],
        },
        { type: 'reply', text: 'done' },
      );
      const run = await harness.cody(['chat', '--approval', 'full-auto', 'use the servers']);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('done');
      expect(run.stderr).toMatch(/warning: MCP server 'crashy'/);
      const requests = harness.server.modelRequests();
      const first = requests[0];
      const second = requests[1];
      if (!first || !second) throw new Error('missing requests');
      // The MCP tools were offered in the first request, in that API's shape.
      expect(JSON.stringify(first.body)).toContain('everything__echo');
      // Gemini gets the schema subset it accepts; the others get the server's schema as it is.
      expect(JSON.stringify(first.body).includes('exclusiveMinimum')).toBe(provider.api !== 'gemini');
      // Said only when the Gemini API is in use, once per server (over the turn's two requests).
      const said = run.stderr.match(/MCP server '\w+': Gemini accepts only part of JSON Schema/g) ?? [];
      if (provider.api !== 'gemini') expect(said).toEqual([]);
      else expect(new Set(said).size).toBe(said.length);
      if (provider.api === 'gemini')
        expect(run.stderr).toMatch(
          /MCP server 'crashy': Gemini accepts only part of JSON Schema; for the Gemini API dropped .*exclusiveMinimum.* from crashy__fancy/,
        );
      const { calls, outputs } = toolExchanges(second);
      expect(calls.map((call) => call.name)).toEqual(['everything__echo', 'crashy__crash', 'crashy__fail']);
      expect(outputs.map((output) => output.text)).toEqual([
        'Echo: hello mcp',
        expect.stringMatching(/^Error: the MCP tool crashy__crash failed/),
        expect.stringMatching(/^Error: MCP server 'crashy' is not running/),
      ]);
    });
  }
});
