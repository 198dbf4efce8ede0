/**
 * Harness context that rides in user-role messages (Codex's `# AGENTS.md instructions …`,
 * `<environment_context>`, `<user_instructions>`): part of the initial context, not something the person
 * typed. Such messages are never a conversation's preview and never a "real" user message when a legacy
 * compaction is rebuilt. Zod-free and tiny: `cody list` loads it.
 */
const CONTEXTUAL_USER_TEXT = /^\s*(?:<[a-z][a-z_ -]*>|# AGENTS\.md instructions)/i;

export function isContextualUserText(text: string): boolean {
  return CONTEXTUAL_USER_TEXT.test(text);
}
