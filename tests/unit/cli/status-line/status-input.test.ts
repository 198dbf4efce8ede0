import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitBranchOf, statusInput } from '../../../../src/cli/status-line/status-input.js';
import { codyStatusLine } from '../../../../src/cli/status-line/status-line.js';

const parts = {
  status: {
    id: 'c-1',
    provider: 'openai',
    model: 'gpt-4.1-mini',
    contextTokens: 12_000,
    contextWindow: 100_000,
    approvalPolicy: 'ask',
    reasoning: 'low',
    reasoningTokens: 40,
  },
  transcriptPath: '/home/me/.cody/conversations/c-1.jsonl',
  cwd: '/work/project',
  projectDir: '/work/project',
  version: '1.2.3',
  gitBranch: 'main',
  totals: { inputTokens: 1200, outputTokens: 30, costUsd: 0.01, turnMs: 2500 },
};

describe('the statusLine command input', () => {
  it("carries Claude Code's field names and Cody's own", () => {
    expect(statusInput(parts)).toEqual({
      hook_event_name: 'Status',
      session_id: 'c-1',
      transcript_path: '/home/me/.cody/conversations/c-1.jsonl',
      cwd: '/work/project',
      model: { id: 'gpt-4.1-mini', display_name: 'gpt-4.1-mini' },
      workspace: { current_dir: '/work/project', project_dir: '/work/project' },
      version: '1.2.3',
      cost: { total_cost_usd: 0.01, total_duration_ms: 2500 },
      context_window: {
        context_window_size: 100_000,
        total_input_tokens: 1200,
        total_output_tokens: 30,
        used_percentage: 12,
      },
      provider: 'openai',
      context_percent: 12,
      tokens: { context: 12_000, window: 100_000, input: 1200, output: 30, reasoning: 40 },
      approval_policy: 'ask',
      reasoning: 'low',
      git_branch: 'main',
    });
  });

  it('says null for what is not known (no tools, no price, no repository)', () => {
    const input = statusInput({
      ...parts,
      status: { ...parts.status, approvalPolicy: undefined, reasoning: undefined },
      gitBranch: undefined,
      totals: { inputTokens: 0, outputTokens: 0, turnMs: 0 },
    });
    expect(input.approval_policy).toBeNull();
    expect(input.reasoning).toBeNull();
    expect(input.git_branch).toBeNull();
    expect(input.cost.total_cost_usd).toBeNull();
    expect(codyStatusLine(input)).toBe('gpt-4.1-mini · 12% context');
  });

  it('reads the branch from .git/HEAD (a worktree file followed, detached as a short commit)', () => {
    const root = mkdtempSync(join(tmpdir(), 'cody-branch-'));
    mkdirSync(join(root, 'repo', '.git'), { recursive: true });
    mkdirSync(join(root, 'repo', 'src', 'deep'), { recursive: true });
    writeFileSync(join(root, 'repo', '.git', 'HEAD'), 'ref: refs/heads/feature/x\n');
    expect(gitBranchOf(join(root, 'repo', 'src', 'deep'))).toBe('feature/x');
    mkdirSync(join(root, 'wt-git'));
    writeFileSync(join(root, 'wt-git', 'HEAD'), '0123456789abcdef0123456789abcdef01234567\n');
    mkdirSync(join(root, 'wt'));
    writeFileSync(join(root, 'wt', '.git'), `gitdir: ${join(root, 'wt-git')}\n`);
    expect(gitBranchOf(join(root, 'wt'))).toBe('0123456');
    mkdirSync(join(root, 'plain'));
    expect(gitBranchOf(join(root, 'plain'))).toBeUndefined();
  });
});
