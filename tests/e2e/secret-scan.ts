/**
 * Every secret the sign-in and key tests hand to cody is recorded here; after a suite, none may appear in
 * $CODY_HOME (apart from the key file the person chose), in stdout/stderr, or in a rollout.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';

const secrets = new Set<string>();

export function recordSecrets(...values: Array<string | undefined>): void {
  for (const value of values) if (value && value.length >= 8) secrets.add(value);
}

async function filesUnder(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true }).catch(() => []);
  const nested = await Promise.all(
    entries.map((entry) =>
      entry.isDirectory()
        ? filesUnder(join(directory, entry.name))
        : Promise.resolve([join(directory, entry.name)]),
    ),
  );
  return nested.flat();
}

export async function scanForSecrets(options: {
  codyHome: string;
  outputs: ReadonlyArray<{ stdout: string; stderr: string }>;
  /** Files that hold a secret by the person's choice (`cody auth login`). */
  allowed?: readonly string[];
}): Promise<void> {
  expect(secrets.size).toBeGreaterThan(0);
  const files = (await filesUnder(options.codyHome)).filter(
    (file) => !(options.allowed ?? []).includes(file),
  );
  expect(files.some((file) => file.endsWith('.jsonl'))).toBe(true);
  const texts = [
    ...(await Promise.all(files.map(async (file) => ({ where: file, text: await readFile(file, 'utf8') })))),
    ...options.outputs.flatMap((run, index) => [
      { where: `stdout #${index}`, text: run.stdout },
      { where: `stderr #${index}`, text: run.stderr },
    ]),
  ];
  const leaks = texts.flatMap(({ where, text }) =>
    [...secrets].filter((secret) => text.includes(secret)).map((secret) => `${where}: …${secret.slice(-4)}`),
  );
  expect(leaks).toEqual([]);
}
