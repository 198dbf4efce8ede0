/**
 * The spinner says Thinking… only for a model that reasons; for one that does not (core's status says
 * `modelReasons: false`), Working… (issue 29). Both views: the REPL's and `cody chat`'s on a terminal.
 */
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import type { Io } from '../../../src/cli/io.js';
import { createPlainView } from '../../../src/cli/turn-view/plain-view.js';
import { createTerminalView } from '../../../src/cli/turn-view/terminal-view.js';

/** What the view writes first: the spinner's first frame. */
function terminalScreen(modelReasons: boolean | undefined): string {
  let screen = '';
  const write = (text: string): void => void (screen += text);
  const view = createTerminalView({
    terminal: { write, columns: () => 80, rows: () => 24 },
    stdout: { write },
    color: new Chalk({ level: 0 }),
    markdown: true,
    echo: { hide: () => undefined, show: () => undefined, pause: () => undefined },
    ask: () => Promise.resolve({ decision: 'deny' }),
    ...(modelReasons !== undefined ? { modelReasons } : {}),
  });
  view.close();
  return screen;
}

function plainScreen(modelReasons: boolean): string {
  let stderr = '';
  const io = {
    stdout: { write: () => true, isTTY: false },
    stderr: { write: (text: string) => (stderr += text), isTTY: true },
    env: { FORCE_COLOR: '1' },
    cwd: '/',
  } as unknown as Io;
  const view = createPlainView(io, { modelReasons });
  view.close();
  return stderr;
}

describe('the spinner', () => {
  it('says Working… for a model that does not reason, Thinking… for one that does', () => {
    expect(terminalScreen(false)).toContain('Working… (Esc to stop)');
    expect(terminalScreen(false)).not.toContain('Thinking');
    expect(terminalScreen(true)).toContain('Thinking… (Esc to stop)');
    expect(plainScreen(false)).toContain('Working…');
    expect(plainScreen(false)).not.toContain('Thinking');
    expect(plainScreen(true)).toContain('Thinking…');
  });
});
