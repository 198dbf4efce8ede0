import type { MessageItem } from '../../protocol/index.js';

/**
 * Cody's initial context, recorded as the first item of every conversation so that resume, provider
 * switches and compaction all see exactly what the model saw.
 */
export function buildSystemMessage(options: {
  cwd: string;
  date: Date;
  tools: readonly string[];
}): MessageItem {
  const lines = [
    "You are Cody, a coding assistant working in the user's terminal.",
    'Answer directly and concisely; use Markdown only where it helps (code blocks, short lists).',
    `The user's working directory is ${options.cwd}. Today's date is ${options.date.toISOString().slice(0, 10)}.`,
  ];
  if (options.tools.length > 0) {
    lines.push(
      `You can call these tools: ${options.tools.join(', ')}. The user approves each command or edit before it runs; if they decline, ask how to proceed.`,
    );
  }
  if (options.tools.includes('update_plan')) {
    lines.push(
      'For work of several steps, call update_plan first with the steps (one in_progress, the rest pending), then call it again as each step is completed, so the user can follow along. Skip it for simple one-step requests.',
    );
  }
  return { type: 'message', role: 'system', content: [{ type: 'input_text', text: lines.join('\n') }] };
}
