/**
 * A `/name` message is the user's own prompt command (`$CODY_HOME/prompts`, `.cody/prompts`, `/init`),
 * expanded before the turn starts; an unknown one is never sent.
 */
import type { ContentPart } from '../../protocol/index.js';
import { UsageError } from '../errors.js';
import { parseCommandMessage, type PromptCommand, resolveSlashMessage } from '../project/index.js';

/** Where the commands come from: the loader, and the home named in the "unknown command" error. */
export interface PromptSource {
  home: string;
  commands: () => Promise<Map<string, PromptCommand>>;
}

/** The message as sent: a command expanded (in text, or in the first text part of content with images). */
export async function expandMessage(
  input: string | ContentPart[],
  source: PromptSource,
): Promise<string | ContentPart[]> {
  return typeof input === 'string' ? expandCommand(input, source) : expandLead(input, source);
}

/** Content whose first part is a `/name` message (a command sent with images): that part expanded. */
async function expandLead(content: ContentPart[], source: PromptSource): Promise<ContentPart[]> {
  const [first, ...rest] = content;
  if (first?.type !== 'input_text') return content;
  const text = await expandCommand(first.text, source);
  return text === first.text ? content : [{ ...first, text }, ...rest];
}

async function expandCommand(text: string, source: PromptSource): Promise<string> {
  if (parseCommandMessage(text) === undefined) return text;
  const resolved = resolveSlashMessage(text, await source.commands());
  if (resolved.kind === 'unknown') {
    throw new UsageError(
      `Unknown command /${resolved.name}: no prompt file ${resolved.name}.md in ${source.home}/prompts or .cody/prompts; nothing was sent.`,
    );
  }
  if (resolved.kind === 'refused')
    throw new UsageError(`/${resolved.name} cannot run: ${resolved.reason}; nothing was sent.`);
  return resolved.kind === 'command' ? resolved.text : text;
}
