import { describe, expect, it } from 'vitest';
import { LineEditor } from '../../../../src/cli/tty/line-editor.js';

const strip = (text: string): string =>
  // eslint-disable-next-line no-control-regex
  text.replace(/\u001b\[[0-9;]*[A-Za-z]/g, '').replace(/\r/g, '');

describe('the status line under the prompt', () => {
  it('is drawn under the input, replaced in place, cut to the width, and gone once the line is sent', () => {
    let written = '';
    const editor = new LineEditor(
      { write: (text) => (written += text), columns: () => 30 },
      { prompt: '› ', promptWidth: 2, history: [], footer: 'gpt-4.1-mini · 3% context' },
    );
    editor.render();
    expect(strip(written)).toBe('› \ngpt-4.1-mini · 3% context');
    // Plain text is dimmed; the cursor goes back up to the input row.
    expect(written).toContain('\u001b[2mgpt-4.1-mini · 3% context\u001b[22m\r\u001b[1A');
    written = '';
    editor.setFooter(`\u001b[32m${'g'.repeat(60)}\u001b[0m`);
    expect(strip(written)).toBe(`› \n${'g'.repeat(28)}…`);
    expect(written).not.toContain('\u001b[2m');
    written = '';
    editor.handle({ name: 'text', text: 'x' });
    expect(strip(written)).toContain('› x\n');
    written = '';
    editor.finish();
    expect(strip(written)).toBe('› x\n');
  });
});
