/**
 * What a `statusLine` command reads on stdin: the session's state as JSON, in Claude Code's shape where a
 * field means the same thing (`session_id`, `transcript_path`, `cwd`, `model`, `workspace`, `version`,
 * `cost`, `context_window`), plus Cody's own (`provider`, `context_percent`, `tokens`, `approval_policy`,
 * `reasoning`, `git_branch`). Pure: the REPL gathers the parts, this only shapes them.
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { SessionStatus } from '../../core/index.js';

/** What the REPL has counted over this run's turns (the session's status does not keep these). */
export interface RunTotals {
  inputTokens: number;
  outputTokens: number;
  /** At list prices; absent while no turn's price was known. */
  costUsd?: number;
  /** Wall-clock time of the turns, summed. */
  turnMs: number;
}

export interface StatusInputParts {
  status: Pick<
    SessionStatus,
    'id' | 'provider' | 'model' | 'contextTokens' | 'contextWindow' | 'approvalPolicy' | 'reasoning'
  > & { reasoningTokens?: number };
  transcriptPath: string;
  cwd: string;
  /** Where the session started (Claude Code's `project_dir`). */
  projectDir: string;
  version: string;
  gitBranch?: string;
  totals: RunTotals;
}

export interface StatusInput {
  hook_event_name: 'Status';
  session_id: string;
  transcript_path: string;
  cwd: string;
  model: { id: string; display_name: string };
  workspace: { current_dir: string; project_dir: string };
  version: string;
  cost: { total_cost_usd: number | null; total_duration_ms: number };
  context_window: {
    context_window_size: number;
    total_input_tokens: number;
    total_output_tokens: number;
    used_percentage: number;
  };
  provider: string;
  context_percent: number;
  tokens: { context: number; window: number; input: number; output: number; reasoning: number };
  approval_policy: string | null;
  reasoning: string | null;
  git_branch: string | null;
}

export function statusInput(parts: StatusInputParts): StatusInput {
  const { status, totals } = parts;
  const percent =
    status.contextWindow > 0 ? Math.round((status.contextTokens / status.contextWindow) * 100) : 0;
  return {
    hook_event_name: 'Status',
    session_id: status.id,
    transcript_path: parts.transcriptPath,
    cwd: parts.cwd,
    model: { id: status.model, display_name: status.model },
    workspace: { current_dir: parts.cwd, project_dir: parts.projectDir },
    version: parts.version,
    cost: { total_cost_usd: totals.costUsd ?? null, total_duration_ms: totals.turnMs },
    context_window: {
      context_window_size: status.contextWindow,
      total_input_tokens: totals.inputTokens,
      total_output_tokens: totals.outputTokens,
      used_percentage: percent,
    },
    provider: status.provider,
    context_percent: percent,
    tokens: {
      context: status.contextTokens,
      window: status.contextWindow,
      input: totals.inputTokens,
      output: totals.outputTokens,
      reasoning: status.reasoningTokens ?? 0,
    },
    approval_policy: status.approvalPolicy ?? null,
    reasoning: status.reasoning ?? null,
    git_branch: parts.gitBranch ?? null,
  };
}

/**
 * The git branch checked out at `cwd` (or the short commit when detached), read from `.git/HEAD` without
 * running git; undefined outside a repository. A worktree's or submodule's `.git` file is followed.
 */
export function gitBranchOf(cwd: string): string | undefined {
  let directory = resolve(cwd);
  for (;;) {
    const dotGit = join(directory, '.git');
    const gitDir = gitDirectoryOf(dotGit, directory);
    if (gitDir !== undefined) return headOf(gitDir);
    const parent = dirname(directory);
    if (parent === directory) return undefined;
    directory = parent;
  }
}

function gitDirectoryOf(dotGit: string, directory: string): string | undefined {
  try {
    if (statSync(dotGit).isDirectory()) return dotGit;
    const pointer = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'));
    return pointer?.[1] !== undefined ? resolve(directory, pointer[1].trim()) : undefined;
  } catch {
    return undefined;
  }
}

function headOf(gitDir: string): string | undefined {
  try {
    const head = readFileSync(join(gitDir, 'HEAD'), 'utf8').trim();
    const ref = /^ref:\s*refs\/heads\/(.+)$/.exec(head);
    if (ref?.[1] !== undefined) return ref[1];
    return /^[0-9a-f]{7,}$/.test(head) ? head.slice(0, 7) : undefined;
  } catch {
    return undefined;
  }
}
