/**
 * Anthropic may refuse a Claude subscription token outside its own apps ("This credential is only
 * authorized for use with Claude Code…", "OAuth authentication is currently not supported"). Cody does not
 * disguise itself to get around that; it says so in one line and names what works instead.
 */
const REFUSAL =
  /only authorized for use with Claude Code|OAuth authentication is currently not supported|cannot be used for other API requests/i;

/** Names no command: the front end adds its own way to switch to a key (the error's code says when). */
export const CLAUDE_REFUSAL_MESSAGE =
  'Anthropic refuses Claude sign-in tokens outside its own apps; use an Anthropic API key instead (ANTHROPIC_API_KEY, or a key stored for Cody).';

export function explainClaudeRefusal(_status: number, bodyText: string): string | undefined {
  return REFUSAL.test(bodyText) ? CLAUDE_REFUSAL_MESSAGE : undefined;
}
