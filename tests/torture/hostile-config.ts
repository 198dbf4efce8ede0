/**
 * Hostile config.json files: each is put in a fresh CODY_HOME and `list`, `chat` and `set-provider`
 * run on it. None may hang, end in exit 70 or print a stack trace; a config that cannot be used must
 * be refused with exit 2 and one line naming the file. Each config's three commands run one after another
 * in one process of their own, each as bin/cody.js runs it (run-batch.ts).
 */
import { execFileSync } from 'node:child_process';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTortureHome } from './home.js';
import { startCodyBatch } from './run-batch.js';
import { hasStackTrace } from './run-cody.js';

export interface ConfigFigures {
  configs: number;
  runs: number;
  hangs: number;
  exit70: number;
  stackTraces: number;
  /** Unusable configs not refused with exit 2 and a single line. */
  notRefused: number;
  firstFailure?: string;
}

type Plant = (file: string) => Promise<void>;

const CASES: Array<[string, Plant]> = [
  ['symlink to /dev/zero', (file) => symlink('/dev/zero', file)],
  ['a FIFO', async (file) => void execFileSync('mkfifo', [file])],
  ['a directory', (file) => mkdir(file)],
  ['100,000-deep arrays', (file) => writeFile(file, `{"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}`)],
  ['100,000-deep objects', (file) => writeFile(file, `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`)],
  ['30 MB of JSON', (file) => writeFile(file, `{"model":"${'m'.repeat(30_000_000)}"}`)],
  ['not JSON', (file) => writeFile(file, 'provider = openai')],
  ['truncated JSON', (file) => writeFile(file, '{"provider": "openai", "baseUrls": {')],
  [
    'a file: base URL',
    (file) => writeFile(file, JSON.stringify({ baseUrls: { openai: 'file:///etc/passwd' } })),
  ],
  [
    'a javascript: base URL',
    (file) => writeFile(file, JSON.stringify({ baseUrls: { openai: 'javascript:alert(1)' } })),
  ],
  [
    'a base URL that is no URL',
    (file) => writeFile(file, JSON.stringify({ baseUrls: { openai: 'localhost 11434' } })),
  ],
  ['wrong types', (file) => writeFile(file, JSON.stringify({ retry: { maxRetries: 'five' }, models: [] }))],
  ['invalid UTF-8', (file) => writeFile(file, Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]))],
  ['NUL bytes', (file) => writeFile(file, Buffer.from('{"model":"a\u0000b"}\u0000'))],
  [
    'a __proto__ key',
    (file) => writeFile(file, '{"__proto__": {"provider": "anthropic"}, "provider": "openai"}'),
  ],
  [
    'a nested constructor key',
    (file) => writeFile(file, '{"models": {"constructor": {"contextWindow": 5}}}'),
  ],
  ['a JSON array', (file) => writeFile(file, '[1,2,3]')],
  ['null', (file) => writeFile(file, 'null')],
];

export async function runHostileConfigs(): Promise<ConfigFigures> {
  const torture = await createTortureHome();
  const figures: ConfigFigures = { configs: 0, runs: 0, hangs: 0, exit70: 0, stackTraces: 0, notRefused: 0 };
  try {
    for (const [name, plant] of CASES) {
      const home = join(torture.root, `config-${figures.configs}`);
      await mkdir(home, { recursive: true, mode: 0o700 });
      const file = join(home, 'config.json');
      await plant(file);
      figures.configs += 1;
      const env = { ...torture.env, CODY_HOME: home };
      const batch = startCodyBatch({ env, cwd: torture.root, deadlineMs: 15_000 });
      for (const args of [['list'], ['chat', 'hello'], ['set-provider', 'anthropic']]) {
        const result = await batch.run(args);
        figures.runs += 1;
        const failures: string[] = [];
        if (result.hung) {
          figures.hangs += 1;
          failures.push('hang');
        }
        if (result.code === 70) {
          figures.exit70 += 1;
          failures.push('exit 70');
        }
        if (hasStackTrace(result.stderr)) {
          figures.stackTraces += 1;
          failures.push('stack trace');
        }
        const oneLine =
          result.stderr.trim().split('\n').length === 1 && result.stderr.includes('config.json');
        if (result.code !== 2 || !oneLine) {
          figures.notRefused += 1;
          failures.push(`exit ${String(result.code)}`);
        }
        if (failures.length > 0 && figures.firstFailure === undefined) {
          figures.firstFailure = `${name} × ${args[0] ?? ''}: ${failures.join(', ')}; ${result.stderr.split('\n')[0] ?? ''}`;
        }
      }
      await batch.close();
      await rm(home, { recursive: true, force: true });
    }
  } finally {
    await torture.close();
  }
  return figures;
}
