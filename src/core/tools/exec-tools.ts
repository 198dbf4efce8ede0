/** The tools that change things in bulk: shell (process group, streamed output) and apply_patch. */
import { z } from 'zod';
import { applyPatch, checkPatch, parsePatch, patchPaths, PatchError } from './apply-patch/apply-patch.js';
import { dangerReason, type DangerousCommand } from './command-safety.js';
import { analyseCommand } from './shell-analysis.js';
import { defineTool, failed, ok, type BoundCall, type ToolHandler } from './handler.js';
import { guarded } from './protected-paths.js';
import { runShellCommand } from './shell-runner.js';
import type { Workspace } from './workspace.js';

/** What decides about a shell command: the always-ask patterns and the read-only safe list. */
export interface ShellRules {
  dangerous: readonly DangerousCommand[];
  safeCommands: readonly string[];
  /** Whether the repository's git config is still the one the session started with. */
  trustGitConfig?: () => boolean;
  /** The environment commands run with (its PATH and CDPATH matter to what a name runs). */
  environment?: Readonly<Record<string, string | undefined>>;
}

export function shellTool(rules: ShellRules): ToolHandler {
  return defineTool(
    'shell',
    z.object({
      command: z.string().min(1),
      workdir: z.string().optional(),
      timeout_ms: z.number().int().min(1).optional(),
    }),
    (args) => ({
      access: (workspace) => {
        const cwd = workspace.resolve(args.workdir ?? '.');
        const danger = dangerReason(args.command, workspace, rules.dangerous);
        const analysis = analyseCommand(args.command, {
          workspace,
          cwd,
          safeCommands: rules.safeCommands,
          trustGitConfig: rules.trustGitConfig?.() ?? true,
          ...(rules.environment ? { environment: rules.environment } : {}),
        });
        return {
          kind: 'exec',
          command: args.command,
          ...(danger !== undefined ? { danger } : {}),
          ...(!workspace.contains(cwd) ? { outsideCwd: cwd } : {}),
          escapes: analysis.escapes,
          readsOutside: analysis.readsOutside,
          ...(analysis.unparsable !== undefined ? { unparsable: analysis.unparsable } : {}),
          safe: analysis.safe,
          staysInside: analysis.staysInside,
          ...(analysis.leaves !== undefined ? { leaves: analysis.leaves } : {}),
        };
      },
      run: async ({ workspace, signal, onOutput, sandbox, defaultShellTimeoutMs, env }) => {
        const timeoutMs = args.timeout_ms ?? defaultShellTimeoutMs;
        const outcome = await runShellCommand({
          command: args.command,
          cwd: workspace.resolve(args.workdir ?? '.'),
          timeoutMs,
          ...(signal ? { signal } : {}),
          ...(onOutput ? { onOutput } : {}),
          ...(sandbox ? { sandbox: { ...sandbox, writableRoot: workspace.root } } : {}),
          ...(env ? { env } : {}),
        });
        const status = outcome.aborted
          ? 'Aborted by the user; output so far:'
          : outcome.timedOut
            ? `Timed out after ${timeoutMs} ms; the command was killed. Output so far:`
            : outcome.exitCode === undefined
              ? `Killed by ${outcome.signal ?? 'a signal'}.`
              : `Exit code: ${outcome.exitCode}`;
        const output = `${status}\nWall time: ${(outcome.durationMs / 1000).toFixed(1)} seconds\nOutput:\n${outcome.output}`;
        return {
          output,
          ...(outcome.exitCode !== undefined ? { exitCode: outcome.exitCode } : {}),
          status: outcome.aborted ? 'aborted' : outcome.exitCode === 0 ? 'ok' : 'error',
        };
      },
    }),
  );
}

export const applyPatchTool = defineTool('apply_patch', z.object({ input: z.string().min(1) }), (args) => {
  // Each path resolved once: the approval decided on these physical paths, and the patch writes them.
  const resolved = new Map<string, string>();
  const resolveOnce = (workspace: Workspace, path: string): string => {
    const physical = resolved.get(path) ?? workspace.resolve(path);
    resolved.set(path, physical);
    return physical;
  };
  return applyPatchCall(args.input, resolveOnce);
});

function applyPatchCall(
  input: string,
  resolveOnce: (workspace: Workspace, path: string) => string,
): BoundCall {
  return {
    access: (workspace) => {
      let paths: string[];
      let deletes: string[];
      try {
        const operations = parsePatch(input);
        paths = patchPaths(operations);
        deletes = operations.flatMap((operation) => (operation.kind === 'delete' ? [operation.path] : []));
      } catch {
        // An unparsable patch changes nothing; running it reports the precise error.
        paths = [];
        deletes = [];
      }
      return {
        kind: 'write',
        outside: paths
          .map((path) => resolveOnce(workspace, path))
          .filter((path) => !workspace.contains(path)),
        summary: `apply a patch to ${paths.join(', ') || 'files'}`,
        ...(deletes.length > 0 ? { deletes } : {}),
        ...guarded(workspace, paths),
      };
    },
    preview: () => Promise.resolve(input),
    check: async (workspace) => {
      try {
        await checkPatch(input, (path) => resolveOnce(workspace, path));
        return undefined;
      } catch (error) {
        if (error instanceof PatchError) return `the patch does not apply: ${error.message}`;
        throw error;
      }
    },
    run: async ({ workspace }) => {
      try {
        const result = await applyPatch(input, (path) => resolveOnce(workspace, path));
        return ok(`Success. Updated the following files:\n${result.summary.join('\n')}`);
      } catch (error) {
        if (error instanceof PatchError)
          return failed(`apply_patch failed, no file was changed: ${error.message}`);
        throw error;
      }
    },
  };
}
