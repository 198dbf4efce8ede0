/**
 * The line after a turn that changed files (`3 files changed, +12 −4`), from its snapshot to the work
 * tree now; undefined when nothing changed. The git modules load only when it is called.
 */
export async function changesSince(cwd: string, snapshot: string): Promise<string | undefined> {
  const [{ openWorkspace }, { diffStat, formatDiffStat }] = await Promise.all([
    import('../tools/workspace.js'),
    import('./turn-diff.js'),
  ]);
  const stat = await diffStat(openWorkspace(cwd).root, snapshot);
  return stat.files.length > 0 ? formatDiffStat(stat) : undefined;
}
