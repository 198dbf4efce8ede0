import { resolveSelection, saveConfig } from '../../core/index.js';
import { ExitCode } from '../exit-codes.js';
import { applyProviderChoice, droppedSignIn } from '../../core/index.js';
import { createContext } from '../context.js';
import type { Io } from '../io.js';
import { chosenModelCheck } from '../known-models.js';

export interface NewOptions {
  provider?: string;
  api?: string;
  model?: string;
}

/** `cody new`: prints the new conversation's id and nothing else on stdout, so `id=$(cody new)` works. */
export async function runNew(options: NewOptions, io: Io): Promise<number> {
  const context = await createContext(io);
  let config = context.config;
  if (options.provider !== undefined || options.api !== undefined || options.model !== undefined) {
    // The choice becomes the current selection, exactly as `cody set-provider` would make it.
    config = applyProviderChoice(context.config, options, new Date());
    await saveConfig(context.paths.configFile, config);
    const selection = resolveSelection(config);
    if (droppedSignIn(context.config, config, options) !== undefined) {
      io.stderr.write(
        `The ChatGPT sign-in works only with the Responses API: switched back to ${selection.provider}'s API key.\n`,
      );
    }
    const { warning } = await chosenModelCheck(context.paths.home, selection, io.env);
    if (warning !== undefined) io.stderr.write(`warning: ${warning}\n`);
  }
  const id = await context.cody.start({ config, activate: true });
  io.stdout.write(`${id}\n`);
  return ExitCode.ok;
}
