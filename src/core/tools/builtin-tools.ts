/**
 * Cody's built-in tools: reading files and directories (no approval needed) and running shell commands
 * or writing files (each call approved by the person, or by an explicit policy).
 */
import { spawn } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import type { ToolSpec } from '../../protocol/index.js';
import type { ToolDecision, ToolResult, ToolRunContext, ToolRuntime } from './tool-runtime.js';

/** Most bytes `read_file` returns at once; larger files are read in pages with offset/limit. */
const READ_LIMIT_BYTES = 200_000;
/** Default shell timeout: long enough for a test run, short enough that a hung command ends the wait. */
const DEFAULT_SHELL_TIMEOUT_MS = 120_000;
/** Most output bytes kept from a shell command (the session truncates further by tokens). */
const SHELL_OUTPUT_LIMIT = 1_000_000;

interface ToolDefinition {
  spec: ToolSpec;
  /** Read-only tools run without asking. */
  readOnly: boolean;
  /** One line describing what the call will do, for the approval prompt. */
  describe(args: Record<string, unknown>): string;
  run(args: Record<string, unknown>, cwd: string, context: ToolRunContext): Promise<string | ToolResult>;
}

const TOOLS: readonly ToolDefinition[] = [
  {
    spec: {
      name: 'read_file',
      description:
        'Read a text file. Paths are relative to the working directory. Use offset/limit (lines) for large files.',
      parameters: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'File path' },
          offset: { type: 'integer', description: 'First line to return (1-based)', minimum: 1 },
          limit: { type: 'integer', description: 'Number of lines to return', minimum: 1 },
        },
        required: ['path'],
      },
    },
    readOnly: true,
    describe: (args) => `read ${String(args.path)}`,
    run: async (args, cwd) => {
      const path = resolvePath(cwd, args.path);
      const text = await readFile(path, 'utf8');
      const lines = text.split('\n');
      const offset = typeof args.offset === 'number' ? Math.max(1, Math.floor(args.offset)) : 1;
      const limit = typeof args.limit === 'number' ? Math.max(1, Math.floor(args.limit)) : lines.length;
      let selected = lines.slice(offset - 1, offset - 1 + limit).join('\n');
      if (selected.length > READ_LIMIT_BYTES) {
        selected = `${selected.slice(0, READ_LIMIT_BYTES)}\n[… file continues; read further with offset/limit]`;
      }
      return selected;
    },
  },
  {
    spec: {
      name: 'list_directory',
      description: 'List the entries of a directory (names; directories end with /).',
      parameters: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'Directory path (default: the working directory)' },
        },
      },
    },
    readOnly: true,
    describe: (args) => `list ${String(args.path ?? '.')}`,
    run: async (args, cwd) => {
      const entries = await readdir(resolvePath(cwd, args.path ?? '.'), { withFileTypes: true });
      return entries
        .map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name))
        .sort()
        .join('\n');
    },
  },
  {
    spec: {
      name: 'shell',
      description:
        'Run a shell command in the working directory (bash -c). Returns exit code, stdout and stderr.',
      parameters: {
        type: 'object',
        properties: {
          command: { type: 'string', description: 'The command line' },
          timeout_ms: {
            type: 'integer',
            description: 'Kill the command after this many milliseconds',
            minimum: 1,
          },
        },
        required: ['command'],
      },
    },
    readOnly: false,
    describe: (args) => `run: ${String(args.command)}`,
    run: (args, cwd, context) =>
      runShell(
        String(args.command ?? ''),
        cwd,
        typeof args.timeout_ms === 'number' ? args.timeout_ms : DEFAULT_SHELL_TIMEOUT_MS,
        context,
      ),
  },
  {
    spec: {
      name: 'write_file',
      description: 'Create or overwrite a text file with the given content.',
      parameters: {
        type: 'object',
        properties: { path: { type: 'string' }, content: { type: 'string' } },
        required: ['path', 'content'],
      },
    },
    readOnly: false,
    describe: (args) => `write ${String(args.path)} (${String(args.content ?? '').length} characters)`,
    run: async (args, cwd) => {
      const path = resolvePath(cwd, args.path);
      await writeFile(path, String(args.content ?? ''));
      return `Wrote ${relative(cwd, path) || path}.`;
    },
  },
  {
    spec: {
      name: 'edit_file',
      description: 'Replace exactly one occurrence of old_text with new_text in a file.',
      parameters: {
        type: 'object',
        properties: { path: { type: 'string' }, old_text: { type: 'string' }, new_text: { type: 'string' } },
        required: ['path', 'old_text', 'new_text'],
      },
    },
    readOnly: false,
    describe: (args) => `edit ${String(args.path)}`,
    run: async (args, cwd) => {
      const path = resolvePath(cwd, args.path);
      const text = await readFile(path, 'utf8');
      const oldText = String(args.old_text ?? '');
      const count = oldText === '' ? 0 : text.split(oldText).length - 1;
      if (count !== 1)
        return `Error: old_text occurs ${count} times in ${String(args.path)}; it must occur exactly once.`;
      await writeFile(
        path,
        text.replace(oldText, () => String(args.new_text ?? '')),
      );
      return `Edited ${String(args.path)}.`;
    },
  },
];

export const BUILTIN_TOOL_NAMES: readonly string[] = TOOLS.map((tool) => tool.spec.name);

export interface BuiltinToolsOptions {
  cwd: string;
  /** Allow every call without asking (`--auto-approve`). */
  autoApprove?: boolean;
}

/**
 * The built-in tools under the default policy: reads run freely; shell commands and file writes are
 * asked about, unless `autoApprove` (or an 'approve-session' answer) allows them all.
 */
export function createBuiltinTools(options: BuiltinToolsOptions): ToolRuntime {
  const byName = new Map(TOOLS.map((tool) => [tool.spec.name, tool]));
  let approveAll = options.autoApprove === true;
  return {
    specs: () => TOOLS.map((tool) => tool.spec),
    has: (name) => byName.has(name),
    decide: (call): Promise<ToolDecision> => {
      const tool = byName.get(call.name);
      if (!tool)
        return Promise.resolve({ kind: 'deny', reason: `no tool named '${call.name}' is available` });
      if (tool.readOnly || approveAll) return Promise.resolve({ kind: 'allow' });
      const args = parseArguments(call.arguments);
      return Promise.resolve({
        kind: 'ask',
        reason: args ? tool.describe(args) : `${call.name} ${call.arguments}`,
      });
    },
    // Today's session approval: every later call of this session runs without asking.
    rememberApproval: () => {
      approveAll = true;
    },
    isReadOnly: (call) => byName.get(call.name)?.readOnly === true,
    run: async (call, context): Promise<ToolResult> => {
      const tool = byName.get(call.name);
      if (!tool) return { output: `Error: unknown tool ${call.name}.`, status: 'error' };
      const args = parseArguments(call.arguments);
      if (!args)
        return { output: `Error: the arguments are not a JSON object: ${call.arguments}`, status: 'error' };
      try {
        const result = await tool.run(args, options.cwd, context);
        return typeof result === 'string' ? { output: result, status: 'ok' } : result;
      } catch (error) {
        return {
          output: `Error: ${error instanceof Error ? error.message : String(error)}`,
          status: 'error',
        };
      }
    },
  };
}

function parseArguments(text: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(text === '' ? '{}' : text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function resolvePath(cwd: string, value: unknown): string {
  if (typeof value !== 'string' || value === '') throw new Error('path is required');
  return isAbsolute(value) ? value : resolve(cwd, value);
}

function runShell(
  command: string,
  cwd: string,
  timeoutMs: number,
  context: ToolRunContext,
): Promise<ToolResult> {
  return new Promise((resolvePromise) => {
    const child = spawn('bash', ['-c', command], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(context.signal ? { signal: context.signal } : {}),
    });
    let stdout = '';
    let stderr = '';
    const append = (current: string, chunk: string): string => {
      context.onOutput?.(chunk);
      return current.length >= SHELL_OUTPUT_LIMIT ? current : current + chunk;
    };
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout = append(stdout, chunk)));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = append(stderr, chunk)));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      const aborted = context.signal?.aborted === true;
      resolvePromise({ output: `Error: ${error.message}`, status: aborted ? 'aborted' : 'error' });
    });
    child.on('close', (code, killedBy) => {
      clearTimeout(timer);
      const status = killedBy
        ? `killed by ${killedBy}${killedBy === 'SIGKILL' ? ` (timeout ${timeoutMs} ms)` : ''}`
        : `exit code ${code}`;
      resolvePromise({
        output: `${status}\n--- stdout ---\n${stdout}\n--- stderr ---\n${stderr}`,
        ...(code !== null ? { exitCode: code } : {}),
        status: context.signal?.aborted ? 'aborted' : code === 0 ? 'ok' : 'error',
      });
    });
  });
}
