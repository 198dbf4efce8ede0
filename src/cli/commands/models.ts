/**
 * `cody models`: the models the selected provider offers, from its own list (OpenAI's and
 * OpenAI-compatible servers' `/models`, Anthropic's `/v1/models`, Gemini's `models.list`), cached in
 * `$CODY_HOME` for a day; with the token limits the list reports. An API without a list Cody reads
 * (Bedrock) shows the catalogue's known ids instead, and says so.
 */
import { resolveSelection, providerSettings } from '../../core/index.js';
import { UsageError } from '../../core/index.js';
import { canListModels, providerModelList } from '../../core/index.js';
import { ExitCode } from '../exit-codes.js';
import { createContext } from '../context.js';
import type { Io } from '../io.js';

export async function runModels(options: { refresh?: boolean }, io: Io): Promise<number> {
  const context = await createContext(io);
  const selection = resolveSelection(context.config);
  if (selection.auth === 'chatgpt') {
    throw new UsageError('cody models lists a server’s /models; the ChatGPT sign-in has no such list.');
  }
  if (!canListModels(selection)) {
    const known = providerSettings(selection.provider).knownModels ?? [];
    io.stderr.write(
      `${selection.provider} has no model list Cody reads; these are the ids Cody's catalogue knows.\n`,
    );
    for (const model of known) io.stdout.write(`${model}\n`);
    return ExitCode.ok;
  }
  const { models } = await providerModelList({
    home: context.paths.home,
    selection,
    env: io.env,
    ...(options.refresh ? { refresh: true } : {}),
  });
  for (const model of models) {
    const limits =
      model.contextWindow !== undefined
        ? `  (window ${model.contextWindow}${model.maxOutputTokens !== undefined ? `, output ${model.maxOutputTokens}` : ''})`
        : '';
    io.stdout.write(`${model.id}${limits}\n`);
  }
  if (models.length === 0) io.stderr.write('The server lists no models.\n');
  return ExitCode.ok;
}
