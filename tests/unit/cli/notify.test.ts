import { describe, expect, it } from 'vitest';
import { notificationSequence, notificationText, terminalProtocol } from '../../../src/cli/notify.js';

const ESC = '\u001b';
const BEL = '\u0007';

describe('terminal notifications', () => {
  it('chooses the sequence per terminal in auto mode', () => {
    const message = 'Cody is waiting for your approval';
    expect(notificationSequence('auto', { TERM_PROGRAM: 'iTerm.app' }, message)).toBe(
      `${ESC}]9;${message}${BEL}`,
    );
    expect(notificationSequence('auto', { TERM_PROGRAM: 'WezTerm' }, message)).toBe(
      `${ESC}]9;${message}${BEL}`,
    );
    expect(notificationSequence('auto', { TERM_PROGRAM: 'ghostty' }, message)).toBe(
      `${ESC}]9;${message}${BEL}`,
    );
    expect(notificationSequence('auto', { TERM: 'xterm-kitty' }, message)).toBe(
      `${ESC}]99;;${message}${ESC}\\`,
    );
    expect(notificationSequence('auto', { TERM: 'foot' }, message)).toBe(
      `${ESC}]777;notify;Cody;${message}${BEL}`,
    );
    expect(notificationSequence('auto', { VTE_VERSION: '7600', TERM: 'xterm-256color' }, message)).toBe(
      `${ESC}]777;notify;Cody;${message}${BEL}`,
    );
    for (const env of [
      { TERM: 'xterm-256color' },
      { WT_SESSION: 'x' },
      { TERM_PROGRAM: 'Apple_Terminal' },
      {},
    ])
      expect(notificationSequence('auto', env, message)).toBe(BEL);
  });

  it('inside tmux passes the sequence through (ESC doubled) when the outer terminal is known, else rings', () => {
    expect(
      notificationSequence('auto', { TMUX: '/tmp/t,1,0', TERM_PROGRAM: 'tmux', LC_TERMINAL: 'iTerm2' }, 'hi'),
    ).toBe(`${ESC}Ptmux;${ESC}${ESC}]9;hi${BEL}${ESC}\\`);
    expect(notificationSequence('auto', { TMUX: '/tmp/t,1,0', TERM_PROGRAM: 'tmux' }, 'hi')).toBe(BEL);
    expect(notificationSequence('auto', { STY: '1.pts', TERM_PROGRAM: 'WezTerm' }, 'hi')).toBe(BEL);
  });

  it('bell is BEL only; off is nothing', () => {
    expect(notificationSequence('bell', { TERM_PROGRAM: 'iTerm.app' }, 'hi')).toBe(BEL);
    expect(notificationSequence('off', { TERM_PROGRAM: 'iTerm.app' }, 'hi')).toBe('');
    expect(terminalProtocol({ KITTY_WINDOW_ID: '1' })).toBe('osc99');
  });

  it('never lets control characters or separators from the text into the sequence', () => {
    const hostile = `done${BEL}${ESC}]52;c;ZXZpbA==${BEL}\u009b2J;4;100\r\n${'x'.repeat(500)}`;
    const text = notificationText(hostile);
    // eslint-disable-next-line no-control-regex
    expect(text).not.toMatch(/[\u0000-\u001f\u007f-\u009f;]/);
    expect([...text].length).toBeLessThanOrEqual(200);
    const sequence = notificationSequence('auto', { TERM_PROGRAM: 'iTerm.app' }, hostile);
    // One OSC, ended once: the only BEL is its terminator.
    expect(sequence.split(BEL)).toHaveLength(2);
    expect(sequence.split(ESC)).toHaveLength(2);
  });
});
