/** MCP end to end through `bin/cody`: `cody mcp list` against the real reference servers from npm. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.js';
import { EVERYTHING, FILESYSTEM } from './tool-fixtures.js';

describe('cody mcp', () => {
  let harness: Harness;
  beforeEach(async () => {
    harness = await createHarness();
  });
  afterEach(async () => {
    await harness.close();
  });

  it('says how to configure servers when there are none', async () => {
    const run = await harness.cody(['mcp', 'list']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^No MCP servers configured\. Add "mcpServers" to .*config\.json\.\n$/);
  });

  it('lists each server with its state and tools; a broken one is shown failed, not a crash', async () => {
    await harness.writeConfig({
      mcpServers: {
        files: { command: process.execPath, args: [FILESYSTEM, harness.home] },
        everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
        broken: { command: process.execPath, args: ['-e', 'process.exit(1)'] },
      },
    });
    const run = await harness.cody(['mcp', 'list']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^files \(stdio\) ready, \d+ tools$/m);
    expect(run.stdout).toMatch(/^ {2}files__read_text_file {2}/m);
    expect(run.stdout).toMatch(/^everything \(stdio\) ready, \d+ tools$/m);
    expect(run.stdout).toMatch(/^ {2}everything__echo {2}Echoes back the input string$/m);
    expect(run.stdout).toMatch(/^broken \(stdio\) failed: /m);
    const json = await harness.cody(['mcp', 'list', '--json']);
    const servers = JSON.parse(json.stdout) as Array<{
      name: string;
      state: string;
      tools: Array<{ name: string }>;
    }>;
    expect(servers.map((server) => [server.name, server.state])).toEqual([
      ['files', 'ready'],
      ['everything', 'ready'],
      ['broken', 'failed'],
    ]);
    expect(servers[1]?.tools.map((tool) => tool.name)).toContain('everything__get-sum');
  });
});
