/** One MCP server connection through the official SDK client (stdio or streamable HTTP). */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { toolEnvironment } from '../tools/index.js';

export type McpServerConfig =
  | { command: string; args?: string[]; env?: Record<string, string>; cwd?: string; timeoutMs?: number }
  | { url: string; headers?: Record<string, string>; timeoutMs?: number };

export interface McpToolInfo {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  readOnly: boolean;
}

export interface McpConnection {
  readonly alive: boolean;
  listTools(): Promise<McpToolInfo[]>;
  callTool(
    name: string,
    args: Record<string, unknown>,
    options: { timeoutMs: number; signal?: AbortSignal },
  ): Promise<{ text: string; isError: boolean }>;
  lastStderr(): string;
  close(): Promise<void>;
}

/**
 * What a stdio server starts with: the SDK's few basic variables (HOME, PATH, USER…) without anything
 * credential-like, then its own `env` from config.json (the one way to hand it a token).
 */
export function mcpServerEnvironment(configured: Record<string, string> = {}): Record<string, string> {
  const base = toolEnvironment(getDefaultEnvironment());
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) if (value !== undefined) result[name] = value;
  return { ...result, ...configured };
}

/** Most stderr characters kept from a stdio server (to explain a failure). */
const STDERR_TAIL = 2000;

export async function connectMcpServer(
  name: string,
  config: McpServerConfig,
  options: { cwd: string; timeoutMs: number; clientVersion: string; onClose: () => void },
): Promise<McpConnection> {
  let alive = true;
  const { transport, stderr } = openTransport(config, options.cwd);
  const client = new Client({ name: 'cody', version: options.clientVersion });
  client.onclose = () => {
    alive = false;
    options.onClose();
  };
  const lastStderr = (): string => stderr().trim().split('\n').pop()?.slice(0, 300) ?? '';
  try {
    await withTimeout(
      client.connect(transport, { timeout: options.timeoutMs }),
      options.timeoutMs,
      `${name} did not start within ${options.timeoutMs} ms`,
    );
  } catch (error) {
    alive = false;
    await client.close().catch(() => undefined);
    const detail = lastStderr();
    throw new Error(
      `${error instanceof Error ? error.message : String(error)}${detail ? ` (${detail})` : ''}`,
    );
  }
  return {
    get alive() {
      return alive;
    },
    listTools: () => listAllTools(client, options.timeoutMs),
    callTool: async (toolName, args, callOptions) => {
      const result = await client.callTool({ name: toolName, arguments: args }, undefined, {
        timeout: callOptions.timeoutMs,
        ...(callOptions.signal ? { signal: callOptions.signal } : {}),
      });
      return { text: contentText(result), isError: result.isError === true };
    },
    lastStderr,
    close: async () => {
      alive = false;
      client.onclose = undefined;
      await client.close();
    },
  };
}

/** The server's transport: HTTP for a `url`, else a child process whose stderr tail is kept. */
function openTransport(config: McpServerConfig, cwd: string): { transport: Transport; stderr: () => string } {
  if ('url' in config) {
    const transport = new StreamableHTTPClientTransport(new URL(config.url), {
      ...(config.headers ? { requestInit: { headers: config.headers } } : {}),
    });
    return { transport, stderr: () => '' };
  }
  let stderr = '';
  const stdio = new StdioClientTransport({
    command: config.command,
    args: config.args ?? [],
    env: mcpServerEnvironment(config.env),
    cwd: config.cwd ?? cwd,
    stderr: 'pipe',
  });
  stdio.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL);
  });
  return { transport: stdio, stderr: () => stderr };
}

/** Every tool the server lists, page after page. */
async function listAllTools(client: Client, timeoutMs: number): Promise<McpToolInfo[]> {
  const tools: McpToolInfo[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor !== undefined ? { cursor } : undefined, {
      timeout: timeoutMs,
    });
    for (const tool of page.tools) {
      tools.push({
        name: tool.name,
        ...(tool.description !== undefined ? { description: tool.description } : {}),
        inputSchema: { ...(tool.inputSchema as Record<string, unknown>), type: 'object' },
        readOnly: tool.annotations?.readOnlyHint === true,
      });
    }
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}

/** The text a model reads from a tool result: text parts, resource text, placeholders for media. */
function contentText(result: Record<string, unknown>): string {
  const content = Array.isArray(result.content) ? (result.content as Array<Record<string, unknown>>) : [];
  const parts = content.map((part) => {
    switch (part.type) {
      case 'text':
        return String(part.text ?? '');
      case 'image':
      case 'audio':
        return `[${String(part.type)}: ${String(part.mimeType ?? 'unknown type')}]`;
      case 'resource': {
        const resource = (part.resource ?? {}) as Record<string, unknown>;
        return typeof resource.text === 'string' ? resource.text : `[resource ${String(resource.uri ?? '')}]`;
      }
      case 'resource_link':
        return `[resource ${String(part.uri ?? '')}]`;
      default:
        return JSON.stringify(part);
    }
  });
  if (parts.length === 0 && result.structuredContent !== undefined)
    return JSON.stringify(result.structuredContent);
  return parts.join('\n');
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(message)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
