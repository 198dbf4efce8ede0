/** The conversation picker of `/resume` and `cody --resume`. */
import type { ChalkInstance } from 'chalk';
import type { Cody } from '../core/index.js';
import { relativeTime } from './commands/list.js';
import { isInWorkspace, workspaceFirst, workspaceOf } from '../core/index.js';
import { textWidth, truncateToWidth } from './layout/width.js';
import { sanitizeForTerminal } from './sanitize.js';
import { LineEditor } from './tty/line-editor.js';
import type { RawTerminal } from './tty/terminal.js';

/**
 * A searchable list of recent conversations, the current workspace's first (the others name their
 * workspace): type to filter, ↑/↓ to move, Enter to open, Esc to cancel.
 */
export async function pickConversation(
  cody: Pick<Cody, 'list'>,
  ui: { terminal: RawTerminal; color: ChalkInstance },
  initialQuery: string,
  cwd: string = process.cwd(),
): Promise<string | undefined> {
  const root = workspaceOf(cwd);
  const all = workspaceFirst(await cody.list({ limit: 200 }), root);
  const rows = all.map((conversation) => ({
    id: conversation.id,
    label: sanitizeForTerminal(
      `${conversation.id.slice(0, 8)}  ${relativeTime(conversation.updatedAt, Date.now()).padEnd(9)}  ${
        conversation.title ?? '(no messages)'
      }${isInWorkspace(conversation, root) ? '' : `  (${conversation.cwd ?? '?'})`}`,
    ),
  }));
  if (rows.length === 0) {
    ui.terminal.write('No saved conversations.\r\n');
    return undefined;
  }
  const query = new LineEditor(
    { write: () => undefined, columns: () => ui.terminal.columns() },
    { prompt: '', promptWidth: 0, history: [] },
    initialQuery,
  );
  let selected = 0;
  let drawn = 0;
  const visible = (): typeof rows =>
    rows
      .filter((row) => {
        const typed = query.buffer.toLowerCase();
        return row.label.toLowerCase().includes(typed) || row.id.startsWith(typed);
      })
      .slice(0, 10);
  const draw = (): void => {
    const columns = ui.terminal.columns();
    const shown = visible();
    let out = `${drawn > 0 ? `\u001b[${drawn}A` : ''}\r\u001b[J`;
    const hint = `  (type to search, ↑/↓, Enter, Esc)`;
    const fits = textWidth(`Resume: ${query.buffer}${hint}`) < columns;
    out += `${ui.color.bold('Resume:')} ${query.buffer}${fits ? ui.color.dim(hint) : ''}`;
    shown.forEach((row, index) => {
      const text = truncateToWidth(row.label, columns - 3);
      out += `\r\n${index === selected ? ui.color.inverse(`› ${text}`) : `  ${text}`}`;
    });
    if (shown.length === 0) out += `\r\n${ui.color.dim('  no match')}`;
    drawn = Math.max(1, shown.length);
    ui.terminal.write(out);
  };
  draw();
  // Laid out again at the new width (its rows are cut to it) when the terminal is resized.
  ui.terminal.onResizeEvent(draw);
  return new Promise((resolve) => {
    const finish = (id: string | undefined): void => {
      ui.terminal.listen(undefined);
      ui.terminal.onResizeEvent(undefined);
      ui.terminal.write(`${drawn > 0 ? `\u001b[${drawn}A` : ''}\r\u001b[J`);
      resolve(id);
    };
    ui.terminal.listen((key) => {
      const shown = visible();
      if (key.name === 'escape' || key.name === 'ctrl-c') return finish(undefined);
      if (key.name === 'enter') return finish(shown[selected]?.id);
      if (key.name === 'up') selected = Math.max(0, selected - 1);
      else if (key.name === 'down') selected = Math.min(Math.max(0, shown.length - 1), selected + 1);
      else {
        query.handle(key);
        selected = 0;
      }
      draw();
    });
  });
}
