/**
 * MCP tools that cost nothing until the first turn offers tools: the SDK and the servers load and start
 * on `prepare()`. Before that (and when no server is configured) there are no MCP tools.
 */
import type { ToolSpec } from '../../protocol/index.js';
import type { ExternalTools } from '../tools/index.js';
import type { ToolResult, ToolRunContext } from '../tools/index.js';
import type { SpecsTarget } from '../tools/index.js';
import type { McpManager, McpManagerOptions } from './mcp-manager.js';

export function createLazyMcpTools(options: McpManagerOptions): ExternalTools | undefined {
  if (Object.keys(options.servers).length === 0) return undefined;
  let manager: McpManager | undefined;
  let starting: Promise<void> | undefined;
  const notStarted = (name: string): ToolResult => ({
    output: `Error: the MCP tool ${name} is not available (its server has not started).`,
    status: 'error',
  });
  return {
    prepare: () =>
      (starting ??= import('./mcp-manager.js').then(async (module) => {
        manager = new module.McpManager(options);
        await manager.prepare();
      })),
    specs: (target?: SpecsTarget): ToolSpec[] => manager?.specs(target) ?? [],
    has: (name) => manager?.has(name) === true,
    isReadOnly: (name) => manager?.isReadOnly(name) === true,
    call: (name: string, args: Record<string, unknown>, context: ToolRunContext) =>
      manager ? manager.call(name, args, context) : Promise.resolve(notStarted(name)),
    close: async () => {
      await starting?.catch(() => undefined);
      await manager?.close();
    },
  };
}
