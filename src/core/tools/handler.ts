/**
 * How a built-in tool is implemented: a zod schema for its arguments and, for valid arguments, a bound
 * call that says what it accesses (for the policy), an optional preview, and how it runs.
 */
import type { z } from 'zod';
import type { Access } from './policy.js';
import type { ToolResult, ToolRunContext } from './tool-decision.js';
import type { Workspace } from './workspace.js';

export interface SandboxSettings {
  bwrap: string;
  network: boolean;
  /** Files commands must not read (the agents' sign-ins): hidden inside the sandbox. */
  hide?: readonly string[];
}

/**
 * An editor's view of the files (`cody acp`), each method present only when the client offers it:
 * `readTextFile` gives a file's text as its open buffer has it, unsaved edits included (undefined when the
 * editor has none to give); `writeTextFile` writes a file through the editor, so it tracks the change.
 * Both get only absolute physical paths Cody has checked (no link in them, inside the workspace).
 */
export interface EditorFiles {
  readTextFile?(path: string): Promise<string | undefined>;
  writeTextFile?(path: string, content: string): Promise<void>;
}

export interface HandlerContext extends ToolRunContext {
  workspace: Workspace;
  /** Run shell commands inside bubblewrap with these settings (only for calls that did not ask). */
  sandbox?: SandboxSettings;
  defaultShellTimeoutMs: number;
  /** System `rg`, when found. */
  rg?: string;
  /** The environment of tool processes (shellEnvironment applied: no credentials). */
  env?: NodeJS.ProcessEnv;
  /** Where read_file reads a file it has checked (the editor's buffer); the disk when absent. */
  editorFiles?: EditorFiles;
}

export interface BoundCall {
  access(workspace: Workspace): Access;
  /** What the person sees before approving (a diff for edits). */
  preview?(workspace: Workspace): Promise<string | undefined>;
  /**
   * Why the call cannot apply as it stands (edit text not in the file, a patch whose context is missing),
   * found by reading the workspace before anyone is asked; undefined when it can. The runtime calls it
   * only for calls whose files are all inside the workspace (reading them needs no approval).
   */
  check?(workspace: Workspace): Promise<string | undefined>;
  run(context: HandlerContext): Promise<ToolResult>;
}

export interface ToolHandler {
  bind(args: unknown): { ok: true; call: BoundCall } | { ok: false; error: string };
}

export function defineTool<S extends z.ZodTypeAny>(
  name: string,
  schema: S,
  build: (args: z.infer<S>) => BoundCall,
): ToolHandler {
  return {
    bind: (args) => {
      const parsed = schema.safeParse(args);
      if (parsed.success) return { ok: true, call: build(parsed.data as z.infer<S>) };
      const problems = parsed.error.issues.map((issue) =>
        issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message,
      );
      return { ok: false, error: `Error: invalid arguments for ${name}: ${problems.join('; ')}.` };
    },
  };
}

export function ok(output: string): ToolResult {
  return { output, status: 'ok' };
}

export function failed(output: string): ToolResult {
  return { output: output.startsWith('Error') ? output : `Error: ${output}`, status: 'error' };
}
