/**
 * The exact secret values Cody holds or reads, which every redactor replaces wherever they appear: each
 * provider's key variables (not every variable with "KEY" in its name: `SORT_KEY=createdAt` is not a
 * secret), the keys stored by `cody auth login`, and `cody serve`'s API token file.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PROVIDER_ENDPOINTS } from './auth/provider-endpoints.js';
import { keyStoreFile, readStoredKeys } from './auth/key-store.js';

/** `cody serve`'s token file (src/server/token.ts writes it). */
const SERVE_TOKEN_FILE = 'serve-token';

/** Every variable a provider's key is read from. */
export function keyVariables(): string[] {
  return [...new Set(Object.values(PROVIDER_ENDPOINTS).flatMap((endpoint) => endpoint.keyVariables))];
}

/** The values of the provider key variables that are set. */
export function environmentSecrets(env: Readonly<Record<string, string | undefined>>): string[] {
  return keyVariables()
    .map((name) => env[name]?.trim() ?? '')
    .filter((value) => value !== '');
}

/** Keys from the environment and the store, and the serve token; a file that cannot be read adds nothing. */
export async function knownSecrets(
  env: Readonly<Record<string, string | undefined>>,
  home: string,
): Promise<string[]> {
  const [stored, token] = await Promise.all([
    readStoredKeys(keyStoreFile(home)).catch(() => ({})),
    readFile(join(home, SERVE_TOKEN_FILE), 'utf8').catch(() => ''),
  ]);
  return [...environmentSecrets(env), ...Object.values(stored), token.trim()].filter((value) => value !== '');
}
