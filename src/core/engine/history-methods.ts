/**
 * What `Cody` reads and takes back of a conversation's history: the transcript (a page, the whole, the
 * recap's tail), the export (written here only), undo and a turn's diff. The modules each needs load
 * when it is called.
 */
import { UsageError } from '../errors.js';
import { countMessages, readTitles } from '../store/index.js';
import { recordedSelectionOf, resolveConversationSelection } from '../selection/index.js';
import type { Cody, TurnDiff } from './cody-api.js';
import type { Engine } from './engine-state.js';

type HistoryMethods = Pick<
  Cody,
  'transcript' | 'fullTranscript' | 'peek' | 'recap' | 'export' | 'undo' | 'diff'
>;

export function historyMethods(engine: Engine): HistoryMethods {
  const { load } = engine;
  return {
    transcript: async (id, pageOptions = {}) => {
      const { manager } = await load();
      return manager.store.transcriptPage(await manager.resolveId(id), pageOptions);
    },
    fullTranscript: async (id) => {
      const { manager } = await load();
      return manager.store.transcript(await manager.resolveId(id));
    },
    peek: async (id) => {
      const { manager, config } = await load();
      const resumed = await manager.resumeConversation(id);
      const ranWith = resumed.lastTurnContext ?? resumed.meta;
      const next = resolveConversationSelection({ recorded: recordedSelectionOf(resumed), config });
      return {
        id: resumed.id,
        ranWith: { provider: ranWith.provider, api: ranWith.api, model: ranWith.model },
        messages: countMessages(resumed.history),
        next: { provider: next.provider, apiName: next.apiName, api: next.api, model: next.model },
        warnings: [...resumed.warnings],
      };
    },
    recap: async (id) => {
      const { manager } = await load();
      const { recapMessages } = await import('../rollout/transcript.js');
      return recapMessages(await manager.store.recentTranscript(await manager.resolveId(id)));
    },
    export: (id, format, options = {}) => exportConversation(engine, id, format, options),
    undo: async (id, request) => {
      const { manager, config } = await load();
      const { undoTurns } = await import('../undo/undo-turns.js');
      return undoTurns({
        manager,
        conversationId: await manager.resolveId(id),
        cwd: engine.cwd,
        turns: request.turns,
        ...(request.force === true ? { force: true } : {}),
        ...(request.confirm ? { confirm: request.confirm } : {}),
        ...(config.lockTimeoutMs !== undefined ? { lockTimeoutMs: config.lockTimeoutMs } : {}),
      });
    },
    diff: (id, options = {}) => turnDiff(engine, id, options.turn),
  };
}

/**
 * What `cody export` and `/export` write: key shapes, config's patterns and every exact secret Cody knows
 * redacted (unless `redact: false`); the reading's warnings go to `onWarning`.
 */
async function exportConversation(
  engine: Engine,
  id: string,
  format: Parameters<Cody['export']>[1],
  options: NonNullable<Parameters<Cody['export']>[2]>,
): Promise<string> {
  const { manager, config, paths } = await engine.load();
  const resolved = await manager.resolveId(id);
  const { formatExport } = await import('../store/export-formats.js');
  let transcript = await manager.store.transcript(resolved);
  if (options.redact !== false) {
    const [{ redactDeep }, { knownSecretsRedactor }] = await Promise.all([
      import('../redact/redact.js'),
      import('../redact/known-secrets.js'),
    ]);
    transcript = redactDeep(
      transcript,
      await knownSecretsRedactor(config.redact ?? [], engine.env, paths.home),
    );
  }
  const text = formatExport(format, resolved, readTitles(paths.home).get(resolved), transcript);
  for (const warning of transcript.warnings) options.onWarning?.(warning);
  return text;
}

/**
 * The change set of turn `wanted` (default: the last turn that changed files), from the snapshot before
 * it to the one after it: a later edit by hand is not in it.
 */
async function turnDiff(engine: Engine, id: string, wanted: number | undefined): Promise<TurnDiff> {
  const { manager } = await engine.load();
  const resolved = await manager.resolveId(id);
  const { openWorkspace } = await import('../tools/workspace.js');
  const workspace = openWorkspace(engine.cwd);
  if (!workspace.isGit)
    throw new UsageError(`No diffs: ${engine.cwd} is not in a git work tree, so no snapshots were taken.`);
  const resumed = await manager.resumeConversation(resolved);
  const [{ readTurnChanges, turnChangeSets, withChanges }, { diffStat, unifiedDiff }] = await Promise.all([
    import('../undo/turn-snapshots.js'),
    import('../undo/turn-diff.js'),
  ]);
  const records = await readTurnChanges(manager.rolloutPath(resolved));
  // A turn whose change set is empty (it only ran `ls` or `git status`) is not a turn with changes.
  const sets = withChanges(await turnChangeSets(workspace.root, resumed.history, records));
  if (sets.length === 0) throw new UsageError('No turn of this conversation changed files.');
  const entry = wanted === undefined ? sets.at(-1) : sets.find((set) => set.turn === wanted);
  if (!entry) {
    throw new UsageError(
      `Turn ${wanted ?? ''} changed no files. Turns with changes: ${sets.map((set) => set.turn).join(', ')}.`,
    );
  }
  return {
    turn: entry.turn,
    snapshot: entry.snapshot,
    unified: () => unifiedDiff(workspace.root, entry.snapshot, entry.after),
    stat: () => diffStat(workspace.root, entry.snapshot, entry.after),
  };
}
