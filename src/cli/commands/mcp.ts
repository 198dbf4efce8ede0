import { ExitCode } from '../exit-codes.js';
import { createContext } from '../context.js';
import type { Io } from '../io.js';
import { sanitizeForTerminal } from '../sanitize.js';

/** `cody mcp list [--json]`: starts each configured MCP server and shows its state and tools. */
export async function runMcpList(options: { json?: boolean }, io: Io): Promise<number> {
  const context = await createContext(io);
  const servers = context.config.mcpServers ?? {};
  if (Object.keys(servers).length === 0) {
    if (options.json) io.stdout.write('[]\n');
    else io.stdout.write(`No MCP servers configured. Add "mcpServers" to ${context.paths.configFile}.\n`);
    return ExitCode.ok;
  }
  const status = await context.cody.mcpStatus();
  if (options.json) {
    io.stdout.write(`${JSON.stringify(status)}\n`);
    return ExitCode.ok;
  }
  for (const server of status) {
    const state =
      server.state === 'failed'
        ? `failed: ${sanitizeForTerminal(server.error ?? 'unknown error')}`
        : server.state;
    io.stdout.write(
      `${server.name} (${server.transport}) ${state}${server.state === 'ready' ? `, ${server.tools.length} tools` : ''}\n`,
    );
    for (const tool of server.tools) io.stdout.write(`  ${tool.name}  ${firstLine(tool.description)}\n`);
  }
  return ExitCode.ok;
}

function firstLine(text: string): string {
  const line = sanitizeForTerminal(text.split('\n')[0] ?? '');
  return line.length > 100 ? `${line.slice(0, 99)}…` : line;
}
