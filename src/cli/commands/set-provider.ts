import { existsSync } from 'node:fs';
import { providerSettings, resolveSelection, saveConfig } from '../../core/index.js';
import { ExitCode } from '../exit-codes.js';
import { isKnownModel, lookupModelLimits, tokenWindowPhrase } from '../../core/index.js';
import { applyProviderChoice, droppedSignIn } from '../../core/index.js';
import { claudeCredentialsFile } from '../../core/index.js';
import { codexAuthFile } from '../../core/index.js';
import { createContext } from '../context.js';
import { checkProviderName } from '../conversation-choice.js';
import type { Io } from '../io.js';
import { chosenModelCheck } from '../known-models.js';

export interface SetProviderOptions {
  provider: string;
  api?: string;
  model?: string;
  baseUrl?: string;
  auth?: string;
}

/** How messages name a provider's sign-in (its definition's label). */
function signInName(provider: string): string {
  const signIn = providerSettings(provider).signIn;
  return signIn?.label ?? signIn?.mode ?? 'sign-in';
}

/** `cody set-provider`: validated, saved to config.json; takes effect on the next turn. */
export async function runSetProvider(options: SetProviderOptions, io: Io): Promise<number> {
  checkProviderName(options.provider);
  const context = await createContext(io);
  const config = applyProviderChoice(context.config, options, new Date());
  await saveConfig(context.paths.configFile, config);
  const selection = resolveSelection(config);
  const limits = lookupModelLimits(selection.model, config);
  io.stdout.write(
    `✓ Provider set: ${selection.provider} (${selection.apiName}) · model: ${selection.model}${
      selection.baseUrl ? ` · base URL: ${selection.baseUrl}` : ''
    }${selection.auth ? ` · sign-in: ${signInName(selection.provider)}` : ''}\n`,
  );
  const dropped = droppedSignIn(context.config, config, options);
  if (dropped !== undefined) {
    io.stdout.write(
      `  The ${signInName(selection.provider)} sign-in works only with the Responses API: switched back to ${selection.provider}'s API key.\n`,
    );
  }
  if (selection.auth) {
    const file = selection.auth === 'chatgpt' ? codexAuthFile(io.env) : claudeCredentialsFile(io.env);
    if (!existsSync(file)) {
      io.stderr.write(
        `warning: ${file} does not exist yet; sign in with \`${selection.auth === 'chatgpt' ? 'codex login' : 'claude'}\` first.\n`,
      );
    }
  }
  const { warning: typo, listed } = await chosenModelCheck(context.paths.home, selection, io.env);
  if (typo !== undefined) io.stderr.write(`warning: ${typo}\n`);
  if (!isKnownModel(selection.model) && limits.source === 'default' && !listed?.includes(selection.model)) {
    io.stderr.write(
      `warning: '${selection.model}' is not in Cody's model catalogue; assuming ${tokenWindowPhrase(limits.contextWindow)} context window. Set models.${selection.model}.contextWindow in ${context.paths.configFile} if it is larger.\n`,
    );
  }
  return ExitCode.ok;
}
