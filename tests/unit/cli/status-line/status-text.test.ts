import { describe, expect, it } from 'vitest';
import { fitToWidth, statusText, visibleWidth } from '../../../../src/cli/status-line/status-text.js';

describe("a status command's output on screen", () => {
  it('keeps the first line only', () => {
    expect(statusText('first\nsecond\n')).toBe('first');
    expect(statusText('first\r\nsecond')).toBe('first');
  });

  it('keeps SGR colours (closed by a reset) and makes every other control visible', () => {
    expect(statusText('\u001b[32mok\u001b[0m')).toBe('\u001b[32mok\u001b[0m\u001b[0m');
    const hostile = statusText('a\u001b]52;c;ZXZpbA==\u0007b\u001b[2Jc\u009b31md\re');
    // eslint-disable-next-line no-control-regex
    expect(hostile).not.toMatch(/\u001b\]|\u0007|\u001b\[2J|\u009b|\r/);
    expect(hostile).toContain('^[]52;c;ZXZpbA==^Gb');
    expect(hostile).toContain('^[[2Jc');
  });

  it('cuts to the width by what is visible, colours not counted', () => {
    const text = statusText(`\u001b[31m${'x'.repeat(50)}\u001b[0m`);
    expect(visibleWidth(text)).toBe(50);
    const cut = fitToWidth(text, 20);
    expect(visibleWidth(cut)).toBe(19);
    expect(cut.endsWith('…\u001b[0m')).toBe(true);
    expect(fitToWidth('short', 20)).toBe('short');
  });
});
