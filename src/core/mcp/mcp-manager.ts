/**
 * MCP servers from config.json (`mcpServers`, the shape Claude Code and Cursor use), connected with the
 * official SDK client: started on the first turn that offers tools, their tools offered as
 * `server__tool`, shut down on close. A server that fails to start, dies, or errors is a warning and an
 * error output to the model, never a crash.
 */
import type { ToolSpec } from '../../protocol/index.js';
import { sanitizeGeminiSchema } from '../../providers/gemini/sanitize-schema.js';
import type { ExternalTools } from '../tools/index.js';
import type { ToolResult, ToolRunContext } from '../tools/index.js';
import type { SpecsTarget } from '../tools/index.js';
import {
  connectMcpServer,
  type McpConnection,
  type McpServerConfig,
  type McpToolInfo,
} from './mcp-connection.js';

/** Default per-call timeout for MCP tools. */
export const DEFAULT_MCP_CALL_TIMEOUT_MS = 60_000;
/** How long a server gets to start and list its tools. */
export const DEFAULT_MCP_START_TIMEOUT_MS = 30_000;
/** Tool names the model APIs accept: letters, digits, `_` and `-`, at most 64. */
const MAX_TOOL_NAME = 64;

export type McpServerStateName = 'not started' | 'starting' | 'ready' | 'failed' | 'closed';

export interface McpServerStatus {
  name: string;
  transport: 'stdio' | 'http';
  state: McpServerStateName;
  error?: string;
  tools: Array<{ name: string; tool: string; description: string }>;
}

interface ServerEntry {
  name: string;
  config: McpServerConfig;
  state: McpServerStateName;
  error?: string;
  connection?: McpConnection;
  tools: McpToolInfo[];
  /** Per exposed tool name, the schema keywords Gemini does not take (cut when the Gemini API is used). */
  geminiDrops: Map<string, string[]>;
  /** Whether the person was told about `geminiDrops` (once per server, when Gemini is first used). */
  geminiWarned: boolean;
}

export interface McpManagerOptions {
  servers: Record<string, McpServerConfig>;
  cwd: string;
  callTimeoutMs?: number;
  startTimeoutMs?: number;
  onWarning?: (message: string) => void;
  /** Reported to servers as the client's version. */
  clientVersion?: string;
}

export class McpManager implements ExternalTools {
  private readonly entries: ServerEntry[];
  private readonly byExposedName = new Map<string, { entry: ServerEntry; tool: McpToolInfo }>();
  private started: Promise<void> | undefined;

  constructor(private readonly options: McpManagerOptions) {
    this.entries = Object.entries(options.servers).map(([name, config]) => ({
      name,
      config,
      state: 'not started',
      tools: [],
      geminiDrops: new Map(),
      geminiWarned: false,
    }));
  }

  prepare(): Promise<void> {
    this.started ??= Promise.all(this.entries.map((entry) => this.start(entry))).then(() => undefined);
    return this.started;
  }

  /** The tools' specs; for the Gemini API, first says (once per server) what its schemas lose there. */
  specs(target?: SpecsTarget): ToolSpec[] {
    if (target?.api === 'gemini') this.warnGeminiDrops();
    return [...this.byExposedName.entries()].map(([name, { entry, tool }]) => ({
      name,
      description: `${tool.description ?? ''} (MCP server ${entry.name})`.trim(),
      parameters: tool.inputSchema,
    }));
  }

  has(name: string): boolean {
    return this.byExposedName.has(name);
  }

  isReadOnly(name: string): boolean {
    return this.byExposedName.get(name)?.tool.readOnly === true;
  }

  async call(name: string, args: Record<string, unknown>, context: ToolRunContext): Promise<ToolResult> {
    const found = this.byExposedName.get(name);
    if (!found) return { output: `Error: no MCP tool named '${name}'.`, status: 'error' };
    const { entry, tool } = found;
    if (entry.state !== 'ready' || !entry.connection)
      return {
        output: `Error: MCP server '${entry.name}' is not running${entry.error ? ` (${entry.error})` : ''}.`,
        status: 'error',
      };
    const timeoutMs = entry.config.timeoutMs ?? this.options.callTimeoutMs ?? DEFAULT_MCP_CALL_TIMEOUT_MS;
    try {
      const result = await entry.connection.callTool(tool.name, args, {
        timeoutMs,
        ...(context.signal ? { signal: context.signal } : {}),
      });
      return { output: result.text, status: result.isError ? 'error' : 'ok' };
    } catch (error) {
      if (context.signal?.aborted) return { output: 'Aborted by the user.', status: 'aborted' };
      const message = error instanceof Error ? error.message : String(error);
      if (!entry.connection.alive) {
        entry.state = 'failed';
        entry.error = `stopped: ${entry.connection.lastStderr() || message}`;
      }
      this.options.onWarning?.(`MCP server '${entry.name}': ${tool.name} failed: ${message}`);
      return { output: `Error: the MCP tool ${name} failed: ${message}`, status: 'error' };
    }
  }

  async close(): Promise<void> {
    await Promise.all(
      this.entries.map(async (entry) => {
        const connection = entry.connection;
        entry.connection = undefined;
        if (entry.state === 'ready') entry.state = 'closed';
        await connection?.close().catch(() => undefined);
      }),
    );
  }

  status(): McpServerStatus[] {
    return this.entries.map((entry) => ({
      name: entry.name,
      transport: 'url' in entry.config ? 'http' : 'stdio',
      state: entry.state,
      ...(entry.error !== undefined ? { error: entry.error } : {}),
      tools: [...this.byExposedName.entries()]
        .filter(([, value]) => value.entry === entry)
        .map(([name, value]) => ({ name, tool: value.tool.name, description: value.tool.description ?? '' })),
    }));
  }

  private async start(entry: ServerEntry): Promise<void> {
    entry.state = 'starting';
    try {
      entry.connection = await connectMcpServer(entry.name, entry.config, {
        cwd: this.options.cwd,
        timeoutMs: this.options.startTimeoutMs ?? DEFAULT_MCP_START_TIMEOUT_MS,
        clientVersion: this.options.clientVersion ?? '0.0.0',
        onClose: () => {
          if (entry.state === 'ready') {
            entry.state = 'failed';
            entry.error = `stopped unexpectedly${entry.connection?.lastStderr() ? `: ${entry.connection.lastStderr()}` : ''}`;
            this.options.onWarning?.(`MCP server '${entry.name}' ${entry.error}.`);
          }
        },
      });
      entry.tools = await entry.connection.listTools();
      entry.state = 'ready';
      for (const tool of entry.tools) this.register(entry, tool);
    } catch (error) {
      entry.state = 'failed';
      entry.error = error instanceof Error ? error.message : String(error);
      await entry.connection?.close().catch(() => undefined);
      entry.connection = undefined;
      this.options.onWarning?.(`MCP server '${entry.name}' failed to start: ${entry.error}`);
    }
  }

  private register(entry: ServerEntry, tool: McpToolInfo): void {
    const name = exposedName(entry.name, tool.name, (candidate) => this.byExposedName.has(candidate));
    this.byExposedName.set(name, { entry, tool });
    const { dropped } = sanitizeGeminiSchema(tool.inputSchema);
    if (dropped.length > 0) entry.geminiDrops.set(name, dropped);
  }

  private warnGeminiDrops(): void {
    for (const entry of this.entries) {
      if (entry.geminiWarned || entry.geminiDrops.size === 0) continue;
      entry.geminiWarned = true;
      const tools = [...entry.geminiDrops].map(([name, dropped]) => `${dropped.join(', ')} from ${name}`);
      this.options.onWarning?.(
        `MCP server '${entry.name}': Gemini accepts only part of JSON Schema; for the Gemini API dropped ${tools.join('; ')}.`,
      );
    }
  }
}

/** `server__tool`, with characters the APIs refuse replaced and the length capped (made unique). */
export function exposedName(server: string, tool: string, taken: (name: string) => boolean): string {
  const clean = (text: string): string => text.replace(/[^A-Za-z0-9_-]/g, '_');
  let name = `${clean(server)}__${clean(tool)}`.slice(0, MAX_TOOL_NAME);
  for (let suffix = 2; taken(name); suffix += 1) name = `${name.slice(0, MAX_TOOL_NAME - 3)}_${suffix}`;
  return name;
}
