/**
 * A conversation written out for people: Markdown or a self-contained HTML page (every model and tool
 * text escaped), from its transcript. `cody export`, the REPL's `/export` and `cody serve`'s export all
 * write these.
 */
import type { ResponseItem } from '../../protocol/index.js';
import type { Transcript, TranscriptEntry } from '../rollout/index.js';

export const EXPORT_FORMATS = ['md', 'json', 'html'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The conversation in that format: Markdown, HTML, or `{ id, title?, meta, entries }` as JSON. */
export function formatExport(
  format: ExportFormat,
  id: string,
  title: string | undefined,
  transcript: Pick<Transcript, 'meta' | 'entries'>,
): string {
  switch (format) {
    case 'json':
      return `${JSON.stringify(
        { id, ...(title !== undefined ? { title } : {}), meta: transcript.meta, entries: transcript.entries },
        null,
        2,
      )}\n`;
    case 'md':
      return toMarkdown(id, title, transcript);
    case 'html':
      return toHtml(id, title, transcript);
  }
}

interface Block {
  role: 'user' | 'assistant' | 'tool' | 'note';
  text: string;
  code?: boolean;
}

function blocksOf(entries: readonly TranscriptEntry[]): Block[] {
  const blocks: Block[] = [];
  for (const entry of entries) {
    switch (entry.kind) {
      case 'item': {
        const block = itemBlock(entry.item);
        if (block && entry.undone === true && entry.item.type === 'message' && entry.item.role === 'user')
          block.text = `${block.text}   ↶ undone`;
        if (block) blocks.push(block);
        break;
      }
      case 'compacted':
        blocks.push({ role: 'note', text: 'Earlier history compacted into a summary.' });
        break;
      case 'turn-context':
        blocks.push({ role: 'note', text: `${entry.provider} (${entry.api}) · ${entry.model}` });
        break;
      case 'aborted':
        blocks.push({ role: 'note', text: `Turn interrupted (${entry.reason}).` });
        break;
      case 'undo':
        blocks.push({ role: 'note', text: 'The turns above marked ↶ undone were undone.' });
        break;
    }
  }
  return blocks;
}

function itemBlock(item: ResponseItem): Block | undefined {
  switch (item.type) {
    case 'message': {
      if (item.role !== 'user' && item.role !== 'assistant') return undefined;
      const text = item.content
        .map((part) => (part.type === 'input_image' ? '[image]' : part.text))
        .join('\n');
      return { role: item.role, text };
    }
    case 'function_call':
      return { role: 'tool', text: `${item.name} ${item.arguments}`, code: true };
    case 'function_call_output': {
      const text =
        typeof item.output === 'string'
          ? item.output
          : item.output.map((part) => (part.type === 'input_image' ? '[image]' : part.text)).join('\n');
      return { role: 'tool', text, code: true };
    }
    default:
      return undefined;
  }
}

function fence(text: string): string {
  const longest = Math.max(2, ...Array.from(text.matchAll(/`+/g), (match) => match[0].length));
  return '`'.repeat(longest + 1);
}

export function toMarkdown(
  id: string,
  title: string | undefined,
  transcript: Pick<Transcript, 'meta' | 'entries'>,
): string {
  const lines = [
    `# ${title ?? `Conversation ${id}`}`,
    '',
    `- id: \`${id}\``,
    `- started: ${transcript.meta.timestamp}`,
    `- model: ${transcript.meta.provider} (${transcript.meta.api}) · ${transcript.meta.model}`,
    '',
  ];
  for (const block of blocksOf(transcript.entries)) {
    if (block.role === 'note') {
      lines.push(`> ${block.text}`, '');
    } else if (block.code) {
      const marks = fence(block.text);
      lines.push(`**${block.role}**`, '', marks, block.text, marks, '');
    } else {
      lines.push(`## ${block.role === 'user' ? 'You' : 'Assistant'}`, '', block.text, '');
    }
  }
  return `${lines.join('\n')}\n`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

export function toHtml(
  id: string,
  title: string | undefined,
  transcript: Pick<Transcript, 'meta' | 'entries'>,
): string {
  const heading = escapeHtml(title ?? `Conversation ${id}`);
  const body = blocksOf(transcript.entries)
    .map((block) => {
      const text = escapeHtml(block.text);
      if (block.role === 'note') return `<p class="note">${text}</p>`;
      const content = block.code ? `<pre>${text}</pre>` : `<div class="text">${text}</div>`;
      return `<section class="${block.role}"><h2>${block.role === 'user' ? 'You' : block.role === 'tool' ? 'Tool' : 'Assistant'}</h2>${content}</section>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${heading}</title>
<style>body{font-family:system-ui,sans-serif;max-width:50em;margin:2em auto;padding:0 1em}
.text{white-space:pre-wrap}pre{background:#f4f4f4;padding:.5em;overflow:auto}
.user h2{color:#0550ae}.assistant h2{color:#116329}.note{color:#666;font-style:italic}</style></head>
<body><h1>${heading}</h1><p>${escapeHtml(`${transcript.meta.provider} (${transcript.meta.api}) · ${transcript.meta.model} · ${transcript.meta.timestamp}`)}</p>
${body}
</body></html>
`;
}
