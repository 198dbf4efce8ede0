/**
 * Telling the person Cody needs them (an approval waits) or is done (a long turn ended), through the
 * terminal: a desktop notification where the terminal is known to show one, else the bell.
 *
 * `auto`: OSC 9 for iTerm2, WezTerm and ghostty; kitty's OSC 99; OSC 777 (`notify`) for foot, VTE-based
 * terminals and urxvt; the bell elsewhere (Windows Terminal, Apple Terminal, xterm, unknown). Inside tmux
 * the sequence goes through tmux's DCS passthrough (it needs `set -g allow-passthrough on`) when the outer
 * terminal is known, else the bell (tmux turns it into a window alert); GNU screen: the bell.
 * `bell`: BEL only. `off`: nothing.
 */
export type NotificationMode = 'auto' | 'bell' | 'off';

const BEL = '\u0007';
const ESC = '\u001b';
const ST = `${ESC}\\`;
/** Characters a notification's text never carries: every C0 and C1 control, DEL, and ESC. */
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]+/g;
const MAX_TEXT = 200;

type Protocol = 'osc9' | 'osc99' | 'osc777' | 'bell';

/** Which notification the terminal described by `env` shows (outside tmux). */
export function terminalProtocol(env: NodeJS.ProcessEnv): Protocol {
  const program = env.TERM_PROGRAM ?? '';
  const term = env.TERM ?? '';
  if (program === 'iTerm.app' || env.LC_TERMINAL === 'iTerm2') return 'osc9';
  if (program === 'WezTerm' || env.WEZTERM_PANE !== undefined) return 'osc9';
  if (program === 'ghostty' || env.GHOSTTY_RESOURCES_DIR !== undefined) return 'osc9';
  if (term === 'xterm-kitty' || env.KITTY_WINDOW_ID !== undefined) return 'osc99';
  if (term.startsWith('foot') || term.startsWith('rxvt-unicode') || env.VTE_VERSION !== undefined)
    return 'osc777';
  return 'bell';
}

/** The bytes to write for `message` (empty for `off`). */
export function notificationSequence(
  mode: NotificationMode,
  env: NodeJS.ProcessEnv,
  message: string,
): string {
  if (mode === 'off') return '';
  if (mode === 'bell') return BEL;
  const text = notificationText(message);
  const inTmux = env.TMUX !== undefined && env.TMUX !== '';
  if (!inTmux && env.STY !== undefined) return BEL;
  const protocol = terminalProtocol(env);
  if (protocol === 'bell') return BEL;
  const sequence = {
    osc9: `${ESC}]9;${text}${BEL}`,
    osc99: `${ESC}]99;;${text}${ST}`,
    osc777: `${ESC}]777;notify;Cody;${text}${BEL}`,
  }[protocol];
  // tmux passes a sequence on to the outer terminal inside `ESC P tmux; … ESC \`, its ESCs doubled.
  return inTmux ? `${ESC}Ptmux;${sequence.replaceAll(ESC, `${ESC}${ESC}`)}${ST}` : sequence;
}

/**
 * A notification's text: no control characters (they would end the sequence or start another), `;`
 * made `,` (OSC 777's separator; OSC 9 reads a leading `4;` as progress), at most 200 characters.
 */
export function notificationText(message: string): string {
  const flat = message.replace(CONTROLS, ' ').replace(/;/g, ',').replace(/\s+/g, ' ').trim();
  const chars = [...flat];
  return chars.length > MAX_TEXT ? `${chars.slice(0, MAX_TEXT - 1).join('')}…` : flat;
}

/** Writes a notification when the mode and terminal call for one. */
export function createNotifier(
  mode: NotificationMode,
  env: NodeJS.ProcessEnv,
  write: (text: string) => void,
): (message: string) => void {
  return (message) => {
    const sequence = notificationSequence(mode, env, message);
    if (sequence !== '') write(sequence);
  };
}
