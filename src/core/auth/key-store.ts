/**
 * Keys saved with `cody auth login`: `$CODY_HOME/auth.json` = `{"keys": {"<provider>": "<key>"}}`, mode
 * 0600 in the 0700 home, rewritten atomically under its lock (unknown fields are kept).
 */
import { join } from 'node:path';
import { isRecord } from '../../protocol/index.js';
import { presetOf, providerPresets } from '../../providers/lookup.js';
import { type CredentialFix, readJsonObject, withFileLock, writeJsonAtomically } from './credential-file.js';

/** Providers whose key `cody auth login` stores (their definitions say `storesKey`), in registry order. */
export function loginProviders(): string[] {
  return providerPresets()
    .filter((preset) => preset.storesKey === true)
    .map((preset) => preset.name);
}

/** Whether `cody auth login` stores this provider's key. */
export function storesKey(provider: string): boolean {
  return presetOf(provider)?.storesKey === true;
}

export function keyStoreFile(codyHome: string): string {
  return join(codyHome, 'auth.json');
}

const FIX: CredentialFix = { text: 'Fix or delete it.', hint: 'store-keys-again' };

/** The stored key of each provider (an empty record when nothing is stored). */
export async function readStoredKeys(file: string): Promise<Record<string, string>> {
  const document = await readJsonObject(file, FIX);
  const keys = document?.keys;
  if (!isRecord(keys)) return {};
  return Object.fromEntries(
    Object.entries(keys).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

/** Stores (or, with `undefined`, removes) one provider's key; returns whether a key was there before. */
export async function updateStoredKey(
  file: string,
  provider: string,
  key: string | undefined,
): Promise<boolean> {
  return withFileLock(file, async () => {
    const document = (await readJsonObject(file, FIX)) ?? {};
    const keys = isRecord(document.keys) ? { ...document.keys } : {};
    const existed = typeof keys[provider] === 'string';
    if (key === undefined) delete keys[provider];
    else keys[provider] = key;
    await writeJsonAtomically(file, { ...document, keys });
    return existed;
  });
}

/** `…1234`: the only part of a secret Cody ever shows (nothing of one too short to spare four). */
export function lastFour(secret: string): string {
  return secret.length >= 12 ? `…${secret.slice(-4)}` : '…';
}
