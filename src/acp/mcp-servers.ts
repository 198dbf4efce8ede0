/**
 * The MCP servers an editor passes with `session/new` / `session/load`, as Cody's `mcpServers` entries:
 * stdio servers (command, arguments, environment) and HTTP ones (URL, headers). SSE is not advertised,
 * so none should come; one that does is left out and said on stderr.
 */
import type { McpServer } from '@agentclientprotocol/sdk';
import type { CodyConfig } from '../core/index.js';

type McpServers = NonNullable<CodyConfig['mcpServers']>;

export function mcpServersOf(servers: readonly McpServer[], warn: (message: string) => void): McpServers {
  const entries: McpServers = {};
  for (const server of servers) {
    if ('type' in server && server.type === 'sse') {
      warn(`MCP server ${server.name}: SSE is not supported; left out`);
    } else if ('type' in server && server.type === 'http') {
      entries[server.name] = {
        url: server.url,
        headers: Object.fromEntries(server.headers.map((header) => [header.name, header.value])),
      };
    } else if ('command' in server) {
      entries[server.name] = {
        command: server.command,
        args: server.args,
        env: Object.fromEntries(server.env.map((variable) => [variable.name, variable.value])),
      };
    }
  }
  return entries;
}
