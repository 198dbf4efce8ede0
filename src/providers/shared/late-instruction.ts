/**
 * A system or developer message given mid-conversation, as user text. It stays where it was given:
 * Anthropic and Gemini have one top-level instruction field and many Chat Completions templates take a
 * system message only first, and hoisting it would change what it applies to (and invalidate the cached
 * prompt prefix). The tag keeps it from reading as something the person typed.
 */
export function wrapLateInstruction(role: 'system' | 'developer', text: string): string {
  return `<${role}_instructions>\n${text}\n</${role}_instructions>`;
}
