/**
 * The one definition of what a conversation's messages, preview and title are, for every reader of a
 * rollout (the listing, resume, the transcript, the REPL recap, the Codex import) and for the live count
 * a turn records. Zod-free and tiny, over the raw line shape (a validated `MessageItem` has the same
 * shape): the bare `cody list` bundle loads it. DECISIONS.md ("One definition of count, preview, title").
 */
import { SUMMARY_PREFIX } from './summary-prefix.js';
import { isContextualUserText } from './is-contextual-user-text.js';

/** A `message` payload as written in a rollout (raw JSON or a validated item). */
export interface MessageLike {
  type?: unknown;
  role?: unknown;
  content?: unknown;
}

/** What an image part reads as in a preview or a recap. */
export const IMAGE_TEXT = '[image]';
/** Long enough to recognise a conversation by, short enough for one table row. */
export const PREVIEW_LENGTH = 60;
const TITLE_LENGTH = 60;

function isMessage(payload: MessageLike): payload is MessageLike & { content: unknown[] } {
  return payload.type === 'message' && Array.isArray(payload.content);
}

/** The text of a message's parts joined with `separator`; an image part reads `[image]`. */
export function partsText(content: readonly unknown[], separator: string): string {
  const parts: string[] = [];
  for (const part of content) {
    if (typeof part !== 'object' || part === null) continue;
    const { type, text } = part as { type?: unknown; text?: unknown };
    if (type === 'input_image') parts.push(IMAGE_TEXT);
    else if (typeof text === 'string') parts.push(text);
  }
  return parts.join(separator);
}

/** The text of the message's text parts alone, joined as written (what marks context and summaries). */
function plainText(content: readonly unknown[]): string {
  let text = '';
  for (const part of content) {
    if (typeof part !== 'object' || part === null) continue;
    const { type, text: value } = part as { type?: unknown; text?: unknown };
    if (type !== 'input_image' && typeof value === 'string') text += value;
  }
  return text;
}

/**
 * A user message the person typed: user role, and neither an earlier compaction's summary nor harness
 * context (`<environment_context>`, project instructions…). This is where a turn starts.
 */
export function isTypedUserMessage(payload: MessageLike): boolean {
  if (!isMessage(payload) || payload.role !== 'user') return false;
  const text = plainText(payload.content);
  return !text.startsWith(SUMMARY_PREFIX) && !isContextualUserText(text);
}

/** A message the conversation's message count counts: every assistant message and every typed one. */
export function isCountedMessage(payload: MessageLike): boolean {
  if (!isMessage(payload)) return false;
  return payload.role === 'assistant' || isTypedUserMessage(payload);
}

/** The typed text of a user message that can be a preview (typed, and not blank), else undefined. */
export function typedUserText(payload: MessageLike): string | undefined {
  if (!isTypedUserMessage(payload)) return undefined;
  const text = partsText((payload as { content: unknown[] }).content, ' ');
  return text.trim() === '' ? undefined : text;
}

/** A text on one line, shortened to {@link PREVIEW_LENGTH}: the preview `cody list` shows. */
export function previewText(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > PREVIEW_LENGTH ? `${flat.slice(0, PREVIEW_LENGTH - 1)}…` : flat;
}

/**
 * A title from the first message: its first line, without Markdown marks or a leading please/can you,
 * cut at a word boundary, first letter capitalised.
 */
export function generateTitle(firstMessage: string | undefined): string | undefined {
  if (firstMessage === undefined) return undefined;
  const firstLine = firstMessage.split('\n').find((line) => line.trim() !== '') ?? '';
  let text = firstLine
    .replace(/[`*_#>[\]]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^(please|hey|hi|hello|can you|could you)[,!]?\s+/i, '')
    .replace(/[.?!:;,]+$/, '');
  if (text === '') return undefined;
  if (text.length > TITLE_LENGTH) {
    const cut = text.slice(0, TITLE_LENGTH - 1);
    const space = cut.lastIndexOf(' ');
    text = `${space > TITLE_LENGTH / 2 ? cut.slice(0, space) : cut}…`;
  }
  return text.charAt(0).toUpperCase() + text.slice(1);
}
