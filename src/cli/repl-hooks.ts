/**
 * The REPL's hooks: `/hooks` lists them (and offers to trust the workspace's `.cody/hooks.json`), and at
 * start, untrusted project hooks are shown with their commands and the person is asked once.
 */
import type { ChalkInstance } from 'chalk';
import type { Cody } from '../core/index.js';
import { hookListingLines } from './commands/hooks.js';
import type { RawTerminal } from './tty/terminal.js';

interface HooksUi {
  terminal: RawTerminal;
  color: ChalkInstance;
}

/** Asks `[y/N]`; only `y` is yes. */
async function askYesNo(ui: HooksUi, say: (text: string) => void, question: string): Promise<boolean> {
  say(question);
  const answer = await new Promise<boolean>((resolve) => {
    ui.terminal.listen((key) => resolve(key.name === 'text' && key.text.toLowerCase() === 'y'));
  });
  ui.terminal.listen(undefined);
  say(answer ? 'yes\n' : 'no\n');
  return answer;
}

/**
 * Shows the hooks; when the project's are not trusted (and `offer`), shows their commands and asks
 * whether to trust them. `onlyUntrusted`: say nothing unless there is something to trust (the start).
 */
export async function reviewHooks(
  cody: Cody,
  ui: HooksUi,
  say: (text: string) => void,
  onlyUntrusted = false,
): Promise<void> {
  const listing = await cody.hooks();
  const project = listing.project;
  if (onlyUntrusted && !(project.state === 'untrusted' && project.entries.length > 0)) return;
  const lines = hookListingLines(listing);
  say(`${(onlyUntrusted ? lines.slice(listing.user.length + 1) : lines).join('\n')}\n`);
  if (project.state !== 'untrusted' || project.entries.length === 0) return;
  const trust = await askYesNo(
    ui,
    say,
    ui.color.yellow('Trust these project hooks and let them run? [y/N] '),
  );
  if (trust) {
    await cody.trustProjectHooks(project.sha256);
    say(ui.color.green('✓ Trusted: they run from the next turn on (until the file changes).\n'));
  }
}

/** At the REPL's start: project hooks nobody trusted yet are shown with their commands, and asked about once. */
export async function reviewHooksAtStart(cody: Cody, ui: HooksUi): Promise<void> {
  const say = (text: string): void => ui.terminal.write(text.replace(/\n/g, '\r\n'));
  await reviewHooks(cody, ui, say, true).catch(() => undefined);
}
