/**
 * Each kind of line Cody writes on a terminal goes through the one layout (issue 29): the approval
 * question (and its redraw on a resize), thinking, tool rows, errors and `/help`, at 40 columns, with
 * colour on (the escapes take no columns) and off.
 */
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { askWithKeys, questionText, type ApprovalRequest } from '../../../../src/cli/approval-question.js';
import { layoutColumns } from '../../../../src/cli/layout/layout.js';
import { stripEscapes, textWidth } from '../../../../src/cli/layout/width.js';
import { helpText } from '../../../../src/cli/repl-input.js';
import { reportError } from '../../../../src/cli/report-error.js';
import { createThinkingView } from '../../../../src/cli/thinking-view.js';
import { createToolView } from '../../../../src/cli/tool-view.js';
import type { Io } from '../../../../src/cli/io.js';

const plain = new Chalk({ level: 0 });
const colour = new Chalk({ level: 1 });

/** Rows of terminal text (escapes removed), each checked to fit `width`. */
function rowsWithin(text: string, width: number): string[] {
  const rows = stripEscapes(text).replace(/\n$/, '').split('\n');
  for (const row of rows) expect(textWidth(row), JSON.stringify(rows)).toBeLessThanOrEqual(width);
  return rows;
}

const request: ApprovalRequest = {
  type: 'approval-requested',
  id: 'a1',
  call: {
    type: 'function_call',
    name: 'shell',
    arguments: JSON.stringify({ command: 'git status' }),
    call_id: 'c1',
  },
  reason: 'the command writes outside the workspace and needs your approval first',
  alwaysScope: { kind: 'command', label: 'git status' },
};

describe.each([
  ['plain', plain],
  ['colour', colour],
])('lines laid out at 40 columns (%s)', (_name, color) => {
  it('the approval title, on words under its indent, and its choices each whole on a row', () => {
    const question = questionText(request, color, 40);
    const title = rowsWithin(question.lines[0] ?? '', 40);
    expect(title.length).toBeGreaterThan(1);
    for (const row of title.slice(1)) expect(row).toMatch(/^ {2}\S/);
    expect(title.join(' ').replace(/\s+/g, ' ')).toContain(
      'writes outside the workspace and needs your approval first',
    );
    const choices = rowsWithin(question.choices, 40);
    expect(choices).toContain('  [n] no, and tell the model why');
    expect(choices.some((row) => row.includes('[Esc] stop the turn'))).toBe(true);
    for (const row of choices) expect(row).toMatch(/^ {2}\[/);
  });

  it('thinking, streamed in pieces, is Markdown on words with a hanging indent, two rows, then the note', () => {
    let out = '';
    const view = createThinkingView(
      (text) => (out += text),
      color,
      () => 40,
    );
    const thought =
      '**Planning the answer** first I read the files and then I compare them carefully one by one';
    for (const piece of thought.match(/.{1,7}/g) ?? []) view.push(piece);
    view.end();
    const rows = rowsWithin(out, 40);
    // Rendered, not raw: no `**` on screen, the words bold when there is colour.
    expect(out).not.toContain('*');
    if (color.level > 0) expect(out).toContain('\u001b[1mPlanning the answer');
    expect(rows[0]).toMatch(/^✻ Planning the answer first/);
    expect(rows[1]).toMatch(/^ {2}\S/);
    const words = rows.slice(0, 2).join(' ').split(/\s+/);
    for (const word of ['Planning', 'answer', 'files', 'compare']) expect(words).toContain(word);
    // The note comes after the two rows, on rows of its own under the indent, within the width.
    expect(rows.slice(0, 2).join(' ')).not.toContain('more characters');
    expect(rows[2]).toMatch(/^ {2}… \(\d+ more characters;/);
    for (const row of rows.slice(3)) expect(row).toMatch(/^ {2}\S/);
    expect(rows.slice(2).join(' ').replace(/\s+/g, ' ')).toMatch(
      /more characters; \/expand shows the thinking whole/,
    );
  });

  it('a tool row and its output keep their bar on every wrapped row', () => {
    let out = '';
    const view = createToolView(
      (text) => (out += text),
      color,
      () => 40,
      () => 0,
    );
    const call = {
      type: 'function_call' as const,
      name: 'shell',
      arguments: JSON.stringify({ command: 'ls' }),
      call_id: 'c1',
    };
    view.called(call, false);
    view.started(call);
    view.recorded('c1', 'Exit code: 0\nOutput:\nthe listing says many words about many files here\n');
    view.finished({ type: 'tool-finished', callId: 'c1', durationMs: 5, exitCode: 0, status: 'ok' });
    view.stop();
    const rows = rowsWithin(out.slice(out.lastIndexOf('⏺')), 40);
    const bars = rows.filter((row) => row.includes('│'));
    expect(bars.length).toBeGreaterThan(1);
    for (const row of bars) expect(row).toMatch(/^ {2}│ \S/);
  });
});

describe('errors and /help at 40 columns', () => {
  it('an error on a terminal is laid out on words with an indent; in a pipe it stays one line', () => {
    let out = '';
    const io = (columns: number | undefined): Io =>
      ({
        stderr: { write: (text: string) => (out += text), columns, isTTY: columns !== undefined },
      }) as unknown as Io;
    const error = new Error('the provider said something long about a path /home/someone/project/file.ts');
    reportError(error, io(40), false);
    const rows = rowsWithin(out, 40);
    expect(rows[1]).toMatch(/^ {2}\S/);
    expect(rows.some((row) => row.includes('/home/someone/project/file.ts'))).toBe(true);
    out = '';
    reportError(error, io(undefined), false);
    expect(out.split('\n')[0]).toContain('long about a path /home');
  });

  it('/help keeps each description under its column', () => {
    const rows = rowsWithin(layoutColumns(helpText(), 40), 40);
    const continued = rows.filter((row) => /^ {3,}\S/.test(row) && !row.trimStart().startsWith('/'));
    expect(continued.length).toBeGreaterThan(0);
    const column = /^ {2}\S+ {2,}/.exec(rows.find((row) => row.startsWith('  /help')) ?? '')?.[0].length ?? 0;
    expect(column).toBeGreaterThan(4);
  });
});

describe('the approval question on a resize', () => {
  it('erases the rows it takes at the new width and lays itself out again', async () => {
    let out = '';
    let width = 80;
    let resize: (() => void) | undefined;
    let listener: ((key: { name: string; text: string }) => void) | undefined;
    const answer = askWithKeys(
      {
        listen: (next) => (listener = next as typeof listener),
        columns: () => width,
        onResize: (next) => (resize = next),
      },
      (text) => (out += text),
      request,
      { color: plain, now: () => 0 },
    );
    const before = out;
    expect(
      rowsWithin(before, 80).some((row) => row.includes('[y] yes, once   [a] always for: git status')),
    ).toBe(true);
    width = 40;
    out = '';
    resize?.();
    // The 80-column rows each take ceil(width / 40) rows once the terminal has reflowed them.
    const height = stripEscapes(before)
      .replace(/\n$/, '')
      .split('\n')
      .reduce((sum, row) => sum + Math.max(1, Math.ceil(textWidth(row) / 40)), 0);
    expect(out.startsWith(`\u001b[${height}A\r\u001b[J`)).toBe(true);
    const rows = rowsWithin(out.slice(`\u001b[${height}A\r\u001b[J`.length), 40);
    expect(rows).toContain('  [n] no, and tell the model why');
    listener?.({ name: 'escape', text: '' });
    expect(await answer).toEqual({ decision: 'abort' });
    expect(resize).toBeUndefined();
  });
});
