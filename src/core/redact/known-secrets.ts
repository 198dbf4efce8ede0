/**
 * The exact secret values Cody holds or reads, which every redactor replaces wherever they appear: each
 * provider's key variables (not every variable with "KEY" in its name: `SORT_KEY=createdAt` is not a
 * secret), the keys stored by `cody auth login`, the sign-in tokens in Codex's auth.json and Claude
 * Code's credentials file, and `cody serve`'s API token file.
 */
import { join } from 'node:path';
import { isRecord } from '../../protocol/index.js';
import { secretVariables } from '../../providers/lookup.js';
import { keyStoreFile, readStoredKeys } from '../auth/index.js';
import { codexAuthFile } from '../auth/index.js';
import { claudeCredentialsFile } from '../auth/index.js';
import { MAX_CREDENTIAL_FILE_BYTES } from '../auth/index.js';
import { readOwnFile } from '../fs/index.js';
import { createRedactor, type Redactor } from './redact.js';

type Env = Readonly<Record<string, string | undefined>>;

/** `cody serve`'s token file (src/server/token.ts writes it). */
const SERVE_TOKEN_FILE = 'serve-token';

/**
 * Not a secret on its own, but half of one: the AWS key id is redacted too (real ids are caught by
 * their shape; this catches any value), though it is still handed to tools like any setting.
 */
const ALSO_REDACTED = ['AWS_ACCESS_KEY_ID'];

/** Every variable a provider's key (or another of its secrets) is read from, and the AWS key id. */
export function keyVariables(): string[] {
  return [...secretVariables(), ...ALSO_REDACTED];
}

/** The values of the provider key variables that are set. */
export function environmentSecrets(env: Env): string[] {
  return keyVariables()
    .map((name) => env[name]?.trim() ?? '')
    .filter((value) => value !== '');
}

/** A secret-holding file's text ('' when missing): a regular file, read up to the credential cap. */
async function credentialText(file: string): Promise<string> {
  return (await readOwnFile(file, { maxBytes: MAX_CREDENTIAL_FILE_BYTES }))?.bytes.toString('utf8') ?? '';
}

/** The string values of `fields` in a JSON file's object (or its `within` object); nothing when unreadable. */
async function jsonStrings(
  file: string,
  within: string | undefined,
  fields: readonly string[],
): Promise<string[]> {
  try {
    const document: unknown = JSON.parse(await credentialText(file));
    const holder: unknown = within === undefined || !isRecord(document) ? document : document[within];
    if (!isRecord(holder)) return [];
    return fields.map((field) => holder[field]).filter((value): value is string => typeof value === 'string');
  } catch {
    return [];
  }
}

/**
 * The sign-in tokens Cody may send (`--auth chatgpt` / `--auth claude`): Codex's ChatGPT tokens and stored
 * API key, Claude Code's OAuth tokens. Read whether or not this run uses them: a tool can print the file.
 */
export async function signInSecrets(env: Env): Promise<string[]> {
  const codex = codexAuthFile(env);
  const lists = await Promise.all([
    jsonStrings(codex, 'tokens', ['access_token', 'refresh_token', 'id_token']),
    jsonStrings(codex, undefined, ['OPENAI_API_KEY']),
    jsonStrings(claudeCredentialsFile(env), 'claudeAiOauth', ['accessToken', 'refreshToken']),
  ]);
  return lists.flat();
}

/**
 * Keys from the environment and the store, the sign-in tokens, and the serve token; a file that cannot be
 * read adds nothing.
 */
export async function knownSecrets(env: Env, home: string): Promise<string[]> {
  const [stored, token, signIns] = await Promise.all([
    readStoredKeys(keyStoreFile(home)).catch(() => ({})),
    credentialText(join(home, SERVE_TOKEN_FILE)).catch(() => ''),
    signInSecrets(env),
  ]);
  return [...environmentSecrets(env), ...Object.values(stored), ...signIns, token.trim()]
    .map((value) => value.trim())
    .filter((value) => value !== '');
}

/**
 * The redactor for what leaves Cody whole (`cody export --redact`, `/export`): the key shapes, config's
 * `redact` patterns and every exact secret above, as the engine's own redactor has them.
 */
export async function knownSecretsRedactor(
  patterns: readonly string[],
  env: Env,
  home: string,
): Promise<Redactor> {
  return createRedactor(patterns, await knownSecrets(env, home));
}
