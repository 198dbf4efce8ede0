/**
 * Whether shell commands that run without asking can be confined: bubblewrap on PATH, and a trial run
 * showing it can build a sandbox here (it needs user namespaces). The runtime detects once and the
 * approval policy depends on the answer, so tests inject it.
 */
import { spawnSync } from 'node:child_process';
import { findOnPath } from './find-on-path.js';
import { bwrapArguments, bwrapSettings } from './shell-runner.js';
import type { Workspace } from './workspace.js';

export type SandboxState = { available: true; bwrap: string } | { available: false; why: string };

export interface SandboxSettings {
  enabled?: boolean;
  network?: boolean;
}

/** Finds bwrap and runs `true` once in the sandbox real commands get. */
export function detectSandbox(
  settings: SandboxSettings,
  workspace: Workspace,
  env: NodeJS.ProcessEnv,
): SandboxState {
  if (settings.enabled === false)
    return { available: false, why: 'the sandbox is turned off in config.json' };
  const bwrap = findOnPath('bwrap', env);
  if (bwrap === undefined) return { available: false, why: 'bubblewrap (bwrap) is not installed' };
  const args = bwrapArguments(
    bwrapSettings({ writableRoot: workspace.root, network: settings.network === true }),
    workspace.cwd,
    'true',
  );
  const result = spawnSync(bwrap, args, { stdio: ['ignore', 'ignore', 'pipe'], timeout: 5_000 });
  if (result.status === 0) return { available: true, bwrap };
  const problem =
    result.stderr?.toString('utf8').trim().split('\n')[0] || `exit code ${String(result.status)}`;
  return { available: false, why: `bubblewrap cannot create a sandbox here (${problem})` };
}
