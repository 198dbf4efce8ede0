import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { McpManager } from '../../../../src/core/mcp/mcp-manager.js';

const REPO = resolve(import.meta.dirname, '../../../..');
const EVERYTHING = join(REPO, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const TEST_SERVER = join(import.meta.dirname, 'fixtures/test-mcp-server.mjs');

describe('MCP manager', () => {
  const managers: McpManager[] = [];
  const open = (
    servers: ConstructorParameters<typeof McpManager>[0]['servers'],
    warnings: string[] = [],
    callTimeoutMs?: number,
  ) => {
    const manager = new McpManager({
      servers,
      cwd: REPO,
      onWarning: (message) => warnings.push(message),
      ...(callTimeoutMs !== undefined ? { callTimeoutMs } : {}),
    });
    managers.push(manager);
    return manager;
  };
  afterEach(async () => {
    await Promise.all(managers.splice(0).map((manager) => manager.close()));
  });

  it('offers the reference server’s tools as server__tool and calls them', async () => {
    const manager = open({ everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } });
    expect(manager.specs()).toEqual([]);
    await manager.prepare();
    const names = manager.specs().map((spec) => spec.name);
    expect(names).toContain('everything__echo');
    expect(names).toContain('everything__get-sum');
    expect(manager.isReadOnly('everything__echo')).toBe(true);
    const echo = manager.specs().find((spec) => spec.name === 'everything__echo');
    expect(echo?.parameters).toMatchObject({ type: 'object', properties: { message: { type: 'string' } } });
    expect(await manager.call('everything__echo', { message: 'hi there' }, {})).toEqual({
      output: 'Echo: hi there',
      status: 'ok',
    });
    const sum = await manager.call('everything__get-sum', { a: 2, b: 40 }, {});
    expect(sum.output).toContain('42');
    const [status] = manager.status();
    expect(status).toMatchObject({ name: 'everything', transport: 'stdio', state: 'ready' });
    await manager.close();
    expect(manager.status()[0]?.state).toBe('closed');
  });

  it('a server that fails to start is a warning, not a crash', async () => {
    const warnings: string[] = [];
    const manager = open(
      { broken: { command: process.execPath, args: ['-e', 'console.error("no config"); process.exit(1)'] } },
      warnings,
    );
    await manager.prepare();
    expect(manager.specs()).toEqual([]);
    expect(manager.status()[0]).toMatchObject({ state: 'failed' });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^MCP server 'broken' failed to start: /);
  });

  it('a crash mid-call, a timeout and a tool error become error outputs', async () => {
    const warnings: string[] = [];
    const manager = open({ test: { command: process.execPath, args: [TEST_SERVER] } }, warnings, 500);
    await manager.prepare();
    expect((await manager.call('test__fail', {}, {})).status).toBe('error');
    expect((await manager.call('test__fail', {}, {})).output).toBe('the widget is broken');
    const slow = await manager.call('test__slow', { ms: 5000 }, {});
    expect(slow.status).toBe('error');
    expect(slow.output).toMatch(/^Error: the MCP tool test__slow failed: .*timed out/i);
    const crash = await manager.call('test__crash', {}, {});
    expect(crash.status).toBe('error');
    expect(crash.output).toMatch(/^Error: the MCP tool test__crash failed/);
    expect(manager.status()[0]?.state).toBe('failed');
    const after = await manager.call('test__fail', {}, {});
    expect(after.output).toMatch(/^Error: MCP server 'test' is not running/);
    expect(warnings.some((warning) => warning.includes("MCP server 'test'"))).toBe(true);
  });

  it('says what Gemini drops from a server’s schemas once, and only when the Gemini API is used', async () => {
    const warnings: string[] = [];
    const manager = open({ test: { command: process.execPath, args: [TEST_SERVER] } }, warnings);
    await manager.prepare();
    const gemini = (): string[] => warnings.filter((warning) => warning.includes('Gemini'));
    manager.specs();
    manager.specs({ api: 'openai-responses' });
    manager.specs({ api: 'anthropic-messages' });
    expect(gemini()).toEqual([]);
    manager.specs({ api: 'gemini' });
    manager.specs({ api: 'gemini' });
    expect(gemini()).toHaveLength(1);
    expect(gemini()[0]).toMatch(
      /^MCP server 'test': Gemini accepts only part of JSON Schema; for the Gemini API dropped .*exclusiveMinimum.* from test__fancy/,
    );
  });

  describe('streamable HTTP', () => {
    let http: Server | undefined;
    afterEach(async () => {
      http?.closeAllConnections();
      await new Promise((done) => (http ? http.close(done) : done(undefined)));
    });

    it('connects with the configured headers', async () => {
      const seenHeaders: string[] = [];
      http = createServer((request, response) => {
        seenHeaders.push(String(request.headers['x-token'] ?? ''));
        const server = new McpServer({ name: 'http-test', version: '1.0.0' });
        server.registerTool('ping', { description: 'Pong' }, () => ({
          content: [{ type: 'text', text: 'pong' }],
        }));
        const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
        response.on('close', () => {
          void transport.close();
          void server.close();
        });
        void server.connect(transport).then(() => transport.handleRequest(request, response));
      });
      await new Promise<void>((done) => http?.listen(0, '127.0.0.1', done));
      const port = (http.address() as AddressInfo).port;
      const manager = open({
        remote: { url: `http://127.0.0.1:${port}/mcp`, headers: { 'x-token': 'secret-1' } },
      });
      await manager.prepare();
      expect(manager.status()[0]).toMatchObject({ transport: 'http', state: 'ready' });
      expect(await manager.call('remote__ping', {}, {})).toEqual({ output: 'pong', status: 'ok' });
      expect(seenHeaders.length).toBeGreaterThan(0);
      expect(new Set(seenHeaders)).toEqual(new Set(['secret-1']));
    });
  });
});
