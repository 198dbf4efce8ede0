/** `cody auth login|logout|status`: keys saved in $CODY_HOME/auth.json, and where each provider's comes from. */
import type { ProviderAuthStatus } from '../../core/index.js';
import { keyStoreFile, lastFour, loginProviders, updateStoredKey } from '../../core/index.js';
import { endpointSettings, keyFromEnvironment } from '../../core/index.js';
import { UsageError } from '../../core/index.js';
import { ExitCode } from '../exit-codes.js';
import { createContext } from '../context.js';
import type { Io } from '../io.js';
import { readSecret } from '../read-secret.js';

function parseLoginProvider(text: string): string {
  const found = loginProviders().find((provider) => provider === text.toLowerCase());
  if (!found)
    throw new UsageError(`Unknown provider '${text}'. Choose one of: ${loginProviders().join(', ')}.`);
  return found;
}

export async function runAuthLogin(options: { provider: string }, io: Io): Promise<number> {
  const provider = parseLoginProvider(options.provider);
  const context = await createContext(io);
  const key = await readSecret(io, `${provider} API key (input hidden): `);
  if (key === '') throw new UsageError('No key given; nothing was saved.');
  if (/\s/.test(key)) throw new UsageError('A key has no spaces or line breaks; nothing was saved.');
  const file = keyStoreFile(context.paths.home);
  await updateStoredKey(file, provider, key);
  io.stdout.write(`✓ Saved the ${provider} key ${lastFour(key)} in ${file}\n`);
  const shadow = keyFromEnvironment(provider, io.env);
  if (shadow) io.stderr.write(`note: ${shadow.variable} is set and takes precedence over the saved key.\n`);
  return ExitCode.ok;
}

export async function runAuthLogout(options: { provider: string }, io: Io): Promise<number> {
  const provider = parseLoginProvider(options.provider);
  const context = await createContext(io);
  const file = keyStoreFile(context.paths.home);
  const existed = await updateStoredKey(file, provider, undefined);
  io.stdout.write(
    existed ? `✓ Removed the ${provider} key from ${file}\n` : `No ${provider} key was saved in ${file}\n`,
  );
  return ExitCode.ok;
}

export async function runAuthStatus(options: { offline?: boolean }, io: Io): Promise<number> {
  const context = await createContext(io);
  const rows = await context.cody.signIns({ offline: options.offline === true });
  const width = Math.max(...rows.map((row) => row.provider.length));
  for (const row of rows) io.stdout.write(`${row.provider.padEnd(width)}  ${describe(row)}\n`);
  return ExitCode.ok;
}

function describe(row: ProviderAuthStatus): string {
  const { source } = row;
  let where: string;
  switch (source.kind) {
    case 'environment':
      where = `environment (${source.variable})`;
      break;
    case 'auth.json':
      where = `auth.json (${source.file})`;
      break;
    case 'codex':
      where = `Codex ${source.mode === 'chatgpt' ? 'ChatGPT sign-in' : 'API key'} (${source.file})`;
      break;
    case 'claude-code':
      where = `Claude Code sign-in (${source.file})`;
      break;
    case 'error':
      return `error: ${source.message}`;
    case 'none': {
      const variables = endpointSettings(row.provider).keyVariables.join(' or ');
      return `none — set ${variables} or run cody auth login ${row.provider}`;
    }
  }
  const parts = [where];
  if (row.hint) parts.push(row.hint);
  if (row.expiresAt !== undefined) {
    const expired = row.expiresAt <= Date.now();
    parts.push(
      `${expired ? 'expired' : 'expires'} ${new Date(row.expiresAt).toISOString()}${expired ? ' (refreshed on next use)' : ''}`,
    );
  }
  const { check } = row;
  switch (check.state) {
    case 'works':
      parts.push('works');
      break;
    case 'rejected':
      parts.push(`rejected (HTTP ${check.status})`);
      break;
    case 'not-checked':
      parts.push(`not checked (${check.reason})`);
      break;
    case 'missing':
      break;
  }
  return parts.join('  ');
}
