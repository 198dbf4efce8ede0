/**
 * The hooks one engine runs: the user's (config.json, trusted) and the workspace's `.cody/hooks.json`
 * (run only once its content is trusted). `refresh` costs one lstat per turn, and an event with no hook
 * costs nothing at all: no spawn, no read. Matching hooks of one event run in parallel, identical
 * commands once.
 */
import { join } from 'node:path';
import type { CodyConfig } from '../config/index.js';
import { openWorkspace, toolEnvironment } from '../tools/index.js';
import { hookEntries, type HookEntry, type HookEventName, type HooksConfig } from './hook-config.js';
import { combineOutcomes, decisionWord, parseHookOutput, type HookOutcome } from './hook-output.js';
import { runHookProcess } from './hook-runner.js';
import { isTrusted, trustHooksFile } from './hook-trust.js';
import { matchesTool, matchesValue } from './matcher.js';
import {
  PROJECT_HOOKS_PATH,
  readProjectHooks,
  stampOf,
  type ProjectHooksFile,
} from './project-hooks-file.js';

export interface HookSetOptions {
  home: string;
  cwd: string;
  /** `hooks` of config.json. */
  userHooks?: HooksConfig | undefined;
  shellEnvironment?: CodyConfig['shellEnvironment'];
}

/** What one hook did, for the `hook` event and the rollout. */
export interface HookRecord {
  event: HookEventName;
  command: string;
  source: HookEntry['source'];
  decision?: string;
  status: 'ok' | 'warning' | 'timeout';
  durationMs: number;
}

export interface HookEventRun {
  outcome: HookOutcome;
  records: HookRecord[];
}

/** What `/hooks` and `cody hooks list` show. */
export interface HookListing {
  user: HookEntry[];
  project:
    | { state: 'none'; path: string }
    | { state: 'invalid'; path: string; why: string }
    | { state: 'trusted' | 'untrusted'; path: string; sha256: string; entries: HookEntry[] };
}

/** What selects the hooks of one run: a tool call's name, or a source / trigger / notification type. */
export interface HookMatch {
  tool?: string;
  value?: string;
}

export class HookSet {
  readonly root: string;
  private readonly user: HookEntry[];
  private project: { stamp: string | undefined; file: ProjectHooksFile; trusted: boolean } | undefined;
  private readonly told = new Set<string>();
  private readonly env: NodeJS.ProcessEnv;

  constructor(private readonly options: HookSetOptions) {
    this.root = openWorkspace(options.cwd).root;
    this.user = hookEntries(options.userHooks, 'user');
    this.env = {
      ...toolEnvironment(process.env, options.shellEnvironment),
      CODY_PROJECT_DIR: this.root,
      CLAUDE_PROJECT_DIR: this.root,
    };
  }

  /**
   * Looks at `.cody/hooks.json` again (one lstat; read only when it changed) and returns what the person
   * must be told, each once: project hooks skipped as untrusted, a file Cody cannot use.
   */
  refresh(): string[] {
    const { file, trusted } = this.reread();
    if (file.kind === 'invalid')
      return this.tellOnce(
        `invalid:${file.path}:${file.why}`,
        `Project hooks in ${PROJECT_HOOKS_PATH} are not used: ${file.why}.`,
      );
    if (file.kind === 'read' && !trusted && file.entries.length > 0)
      return this.tellOnce(
        `untrusted:${file.sha256}`,
        `Project hooks in ${PROJECT_HOOKS_PATH} are not trusted and were skipped (${file.entries.length} command${file.entries.length === 1 ? '' : 's'}); run \`cody hooks trust\` (or /hooks in the REPL) to review and trust them.`,
      );
    return [];
  }

  /** The hooks that run: the user's, and the project's once trusted. */
  entries(): HookEntry[] {
    const project =
      this.project?.trusted === true && this.project.file.kind === 'read' ? this.project.file.entries : [];
    return project.length === 0 ? this.user : [...this.user, ...project];
  }

  /** Whether any hook of `event` would run (no stat, no read). */
  has(event: HookEventName): boolean {
    return this.entries().some((entry) => entry.event === event);
  }

  /** Runs the hooks of `event` that match, in parallel (identical commands once), and combines them. */
  async run(
    event: HookEventName,
    input: Record<string, unknown>,
    match: HookMatch,
    signal?: AbortSignal,
  ): Promise<HookEventRun> {
    const selected = new Map<string, HookEntry>();
    for (const entry of this.entries()) {
      if (entry.event !== event) continue;
      const matches =
        match.tool !== undefined
          ? matchesTool(entry.matcher, match.tool)
          : matchesValue(entry.matcher, match.value);
      if (!matches) continue;
      const known = selected.get(entry.command);
      if (!known || known.timeoutMs < entry.timeoutMs) selected.set(entry.command, entry);
    }
    if (selected.size === 0) return { outcome: {}, records: [] };
    const stdin = JSON.stringify(input);
    const runs = await Promise.all(
      [...selected.values()].map(async (entry) => {
        const started = Date.now();
        const result = await runHookProcess({
          command: entry.command,
          input: stdin,
          cwd: this.options.cwd,
          env: this.env,
          timeoutMs: entry.timeoutMs,
          ...(signal ? { signal } : {}),
        });
        const outcome = parseHookOutput(event, result, JSON.stringify(shortCommand(entry.command)));
        const decision = decisionWord(outcome);
        const record: HookRecord = {
          event,
          command: shortCommand(entry.command),
          source: entry.source,
          ...(decision !== undefined ? { decision } : {}),
          status: result.timedOut ? 'timeout' : outcome.messages && decision === undefined ? 'warning' : 'ok',
          durationMs: Date.now() - started,
        };
        return { outcome, record };
      }),
    );
    return {
      outcome: combineOutcomes(runs.map((run) => run.outcome)),
      records: runs.map((run) => run.record),
    };
  }

  /** Reads `.cody/hooks.json` again when it changed (one lstat otherwise), and whether it is trusted. */
  private reread(): { file: ProjectHooksFile; trusted: boolean } {
    const path = join(this.root, PROJECT_HOOKS_PATH);
    const stamp = stampOf(path);
    if (!this.project || this.project.stamp !== stamp || stamp === undefined) {
      const file = stamp === undefined ? ({ kind: 'none' } as const) : readProjectHooks(this.root);
      const trusted = file.kind === 'read' && isTrusted(this.options.home, file.path, file.sha256);
      this.project = { stamp, file, trusted };
    }
    return this.project;
  }

  /**
   * The hooks configured here, and whether the project's are trusted (reads the file now). Tells nothing:
   * a listing does not use up the warning the next turn gives when the project's are skipped.
   */
  listing(): HookListing {
    this.project = undefined;
    this.reread();
    const path = join(this.root, PROJECT_HOOKS_PATH);
    const project = this.project as { file: ProjectHooksFile; trusted: boolean } | undefined;
    const file = project?.file ?? { kind: 'none' };
    if (file.kind === 'none') return { user: this.user, project: { state: 'none', path } };
    if (file.kind === 'invalid')
      return { user: this.user, project: { state: 'invalid', path, why: file.why } };
    return {
      user: this.user,
      project: {
        state: project?.trusted === true ? 'trusted' : 'untrusted',
        path,
        sha256: file.sha256,
        entries: file.entries,
      },
    };
  }

  /**
   * Trusts the project's hooks file as it is now, when its content is still `sha256` (what the person was
   * shown); returns the listing after.
   */
  async trustProject(sha256: string): Promise<HookListing> {
    const file = readProjectHooks(this.root);
    if (file.kind !== 'read' || file.sha256 !== sha256)
      throw new Error(`${PROJECT_HOOKS_PATH} changed since it was shown; look at it again.`);
    await trustHooksFile(this.options.home, file.path, file.sha256);
    return this.listing();
  }

  private tellOnce(key: string, message: string): string[] {
    if (this.told.has(key)) return [];
    this.told.add(key);
    return [message];
  }
}

/** A command as events and lists show it: one line, at most 200 characters. */
export function shortCommand(command: string): string {
  const line = command.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
