/**
 * Which hooks a tool call (or a SessionStart source, a PreCompact trigger, a notification type) matches.
 * A matcher is a regular expression over the whole name; `*`, '' or none matches everything. Claude Code's
 * tool names are aliases of Cody's, so a hook written for Claude Code matches unchanged: `Bash` matches
 * `shell`, `Edit` matches `edit_file` and `apply_patch`, `mcp__github__search` matches `github__search`.
 */

/** Claude Code's tool name → Cody's tools it stands for. */
export const CLAUDE_TOOL_ALIASES: Readonly<Record<string, readonly string[]>> = {
  Bash: ['shell'],
  Read: ['read_file'],
  Write: ['write_file'],
  Edit: ['edit_file', 'apply_patch'],
  MultiEdit: ['edit_file', 'apply_patch'],
  Grep: ['grep'],
  Glob: ['glob'],
  LS: ['list_directory'],
  WebFetch: ['web_fetch'],
  TodoWrite: ['update_plan'],
};

/** The names a Cody tool answers to: its own, Claude Code's, and `mcp__…` for an MCP tool (`server__tool`). */
export function toolNameAliases(name: string): string[] {
  const names = [name];
  for (const [claude, cody] of Object.entries(CLAUDE_TOOL_ALIASES))
    if (cody.includes(name)) names.push(claude);
  if (name.includes('__')) names.push(`mcp__${name}`);
  return names;
}

/** A matcher compiled once: undefined when it is not a valid regular expression. */
export function compileMatcher(matcher: string | undefined): ((value: string) => boolean) | undefined {
  if (matcher === undefined || matcher === '' || matcher === '*') return () => true;
  let pattern: RegExp;
  try {
    pattern = new RegExp(`^(?:${matcher})$`);
  } catch {
    return undefined;
  }
  return (value) => pattern.test(value);
}

/** Whether `matcher` selects a tool call of `toolName` (under any of its aliases). */
export function matchesTool(matcher: string | undefined, toolName: string): boolean {
  const test = compileMatcher(matcher);
  return test !== undefined && toolNameAliases(toolName).some((name) => test(name));
}

/** Whether `matcher` selects `value` (a source, a trigger, a notification type); no value: every hook. */
export function matchesValue(matcher: string | undefined, value: string | undefined): boolean {
  if (value === undefined) return true;
  return compileMatcher(matcher)?.(value) === true;
}
