/** `cody models`: the model ids the selected OpenAI-compatible server offers (`GET {base}/models`). */
import { clientCredentials } from '../../core/auth/resolve-credentials.js';
import { endpointOf } from '../../core/auth/provider-endpoints.js';
import { resolveSelection } from '../../core/config.js';
import { UsageError } from '../../core/errors.js';
import { ExitCode } from '../exit-codes.js';
import { listModels } from '../../providers/shared/list-models.js';
import { createContext } from '../context.js';
import type { Io } from '../io.js';

export async function runModels(_options: Record<string, never>, io: Io): Promise<number> {
  const context = await createContext(io);
  const selection = resolveSelection(context.config);
  if (selection.api !== 'openai-chat' && selection.api !== 'openai-responses') {
    throw new UsageError(
      `cody models lists an OpenAI-compatible server's models; the selected provider is ${selection.provider}. Choose one with cody set-provider ollama|lmstudio|vllm|openrouter|openai.`,
    );
  }
  if (selection.auth === 'chatgpt') {
    throw new UsageError('cody models lists a server’s /models; the ChatGPT sign-in has no such list.');
  }
  const credentials = await clientCredentials(selection, io.env, context.paths.home);
  const models = await listModels({
    baseUrl: credentials.baseUrl ?? endpointOf(selection.provider, selection.baseUrl, io.env),
    ...(credentials.apiKey ? { apiKey: credentials.apiKey } : {}),
    ...(credentials.headers ? { headers: credentials.headers } : {}),
    api: selection.api,
  });
  for (const model of models) io.stdout.write(`${model}\n`);
  if (models.length === 0) io.stderr.write('The server lists no models.\n');
  return ExitCode.ok;
}
