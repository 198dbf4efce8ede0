/**
 * `cody hooks list` and `cody hooks trust`: the hooks of config.json and of the workspace's
 * `.cody/hooks.json`, and trusting the latter as it is now (its commands are shown first).
 */
import type { HookEntry, HookListing } from '../../core/index.js';
import { createContext } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import type { Io } from '../io.js';
import { sanitizeForTerminal } from '../sanitize.js';

/** The lines that show a listing: each hook's event, matcher and command, and the project file's state. */
export function hookListingLines(listing: HookListing): string[] {
  const entry = (hook: HookEntry): string =>
    `  ${hook.event}${hook.matcher ? ` [${sanitizeForTerminal(hook.matcher)}]` : ''}: ${sanitizeForTerminal(hook.command)}`;
  const lines = [listing.user.length > 0 ? 'Your hooks (config.json):' : 'No hooks in config.json.'];
  lines.push(...listing.user.map(entry));
  const project = listing.project;
  if (project.state === 'none') lines.push('No project hooks (.cody/hooks.json).');
  else if (project.state === 'invalid')
    lines.push(`Project hooks (${project.path}) are not used: ${sanitizeForTerminal(project.why)}.`);
  else {
    lines.push(
      `Project hooks (${project.path}), ${project.state === 'trusted' ? 'trusted' : 'NOT trusted: they do not run'}:`,
    );
    lines.push(...project.entries.map(entry));
  }
  return lines;
}

export async function runHooksCommand(
  action: 'list' | 'trust',
  options: { json?: boolean },
  io: Io,
): Promise<number> {
  const context = await createContext(io, { create: action === 'trust' });
  try {
    const listing = await context.cody.hooks();
    if (action === 'list') {
      io.stdout.write(
        options.json ? `${JSON.stringify(listing)}\n` : `${hookListingLines(listing).join('\n')}\n`,
      );
      return ExitCode.ok;
    }
    const project = listing.project;
    if (project.state !== 'trusted' && project.state !== 'untrusted') {
      io.stderr.write(`${hookListingLines(listing).at(-1) ?? ''}\n`);
      return ExitCode.usage;
    }
    for (const line of hookListingLines(listing).slice(listing.user.length + 1)) io.stdout.write(`${line}\n`);
    await context.cody.trustProjectHooks(project.sha256);
    io.stdout.write(`Trusted: these commands run from the next turn on (until the file changes).\n`);
    return ExitCode.ok;
  } finally {
    await context.dispose();
  }
}
