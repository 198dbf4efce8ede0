/**
 * Which project hooks files the user trusts: `$CODY_HOME/trusted-hooks.json`, each file's real path with
 * the SHA-256 of the content trusted. A changed file (or the same content at another path, whose
 * relative commands would run other scripts) is untrusted until trusted again.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';

const TRUST_FILE = 'trusted-hooks.json';
const MAX_TRUST_BYTES = 1024 * 1024;

const trustSchema = z.object({ trusted: z.record(z.string(), z.string().regex(/^[0-9a-f]{64}$/)) });

type TrustMap = Record<string, string>;

function readTrust(home: string): TrustMap {
  try {
    const text = readFileSync(join(home, TRUST_FILE), 'utf8');
    if (text.length > MAX_TRUST_BYTES) return {};
    const parsed = trustSchema.safeParse(JSON.parse(text));
    return parsed.success ? { ...parsed.data.trusted } : {};
  } catch {
    return {};
  }
}

export function isTrusted(home: string, path: string, sha256: string): boolean {
  const trusted = readTrust(home);
  return Object.hasOwn(trusted, path) && trusted[path] === sha256;
}

/** Records `sha256` as the trusted content of the file at `path` (written whole, then renamed, mode 0600). */
export async function trustHooksFile(home: string, path: string, sha256: string): Promise<void> {
  const trusted = { ...readTrust(home), [path]: sha256 };
  const target = join(home, TRUST_FILE);
  const temporary = `${target}.${randomUUID()}.tmp`;
  await writeFile(temporary, `${JSON.stringify({ trusted }, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, target);
}
