/** `cody models`: the model ids the selected OpenAI-compatible server offers (`GET {base}/models`). */
import { clientCredentials } from '../../core/auth/index.js';
import { endpointOf } from '../../core/auth/index.js';
import { listsModels, providersListingModels, resolveSelection } from '../../core/config/index.js';
import { UsageError } from '../../core/errors.js';
import { ExitCode } from '../exit-codes.js';
import { createContext } from '../context.js';
import type { Io } from '../io.js';

export async function runModels(_options: Record<string, never>, io: Io): Promise<number> {
  const context = await createContext(io);
  const selection = resolveSelection(context.config);
  const list = listsModels(selection.api);
  if (!list) {
    throw new UsageError(
      `cody models lists an OpenAI-compatible server's models; the selected provider is ${selection.provider}. Choose one with cody set-provider ${providersListingModels().join('|')}.`,
    );
  }
  if (selection.auth === 'chatgpt') {
    throw new UsageError('cody models lists a server’s /models; the ChatGPT sign-in has no such list.');
  }
  const credentials = await clientCredentials(selection, io.env, context.paths.home);
  const baseUrl = credentials.baseUrl ?? endpointOf(selection.provider, selection.baseUrl, io.env);
  if (baseUrl === undefined) throw new UsageError(`${selection.provider} has no endpoint to list models at.`);
  const models = await list({
    baseUrl,
    ...(credentials.apiKey ? { apiKey: credentials.apiKey } : {}),
    ...(credentials.headers ? { headers: credentials.headers } : {}),
  });
  for (const model of models) io.stdout.write(`${model}\n`);
  if (models.length === 0) io.stderr.write('The server lists no models.\n');
  return ExitCode.ok;
}
