/**
 * `cody export --redact` and the REPL's `/export` use every exact secret Cody knows, as the engine does:
 * a configured key and a sign-in token that reached a rollout before Cody knew them (typed before the
 * key was set or the sign-in made) are `[REDACTED]` in the export. In process: the commands' own
 * functions with a fake Io, against a rollout written through createCody and the fake provider.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCody, type CodyEvent } from '../../src/index.js';
import { CLI_VERSION } from '../../src/cli/version.js';
import { runExport } from '../../src/cli/commands/export.js';
import { exportConversation } from '../../src/cli/repl-export.js';
import { createContext } from '../../src/cli/context.js';
import type { Io } from '../../src/cli/io.js';
import { createHarness, FAKE_KEYS, type Harness } from './harness.js';

/** Neither matches a key shape: only the exact-secret list can redact them. */
const GEMINI_KEY = FAKE_KEYS.GEMINI_API_KEY;
const CHATGPT_ACCESS = 'chatgpt-access-7h8j9k0l1m';

function fakeIo(env: Record<string, string | undefined>, cwd: string): Io & { out: () => string } {
  let out = '';
  return {
    stdout: { write: (chunk: string) => (out += chunk) },
    stderr: { write: () => true },
    stdin: (async function* () {})(),
    env,
    cwd,
    out: () => out,
  };
}

describe('export --redact and /export', () => {
  let harness: Harness;
  let id: string;
  beforeEach(async () => {
    harness = await createHarness();
    await harness.writeConfig({ provider: 'openai', api: 'chat', model: 'gpt-4.1-mini' });
    // The conversation is written while Cody knows neither value: no Gemini key, no Codex sign-in.
    const cody = createCody({
      home: harness.env.CODY_HOME,
      env: { ...harness.env, GEMINI_API_KEY: undefined },
      cwd: harness.home,
      canAsk: false,
      tools: false,
      version: CLI_VERSION,
    });
    const conversation = await cody.create();
    id = conversation.id;
    const events: CodyEvent[] = [];
    for await (const event of conversation.submit(`keep ${GEMINI_KEY} and ${CHATGPT_ACCESS}`))
      events.push(event);
    await cody.close();
    expect(events.at(-1)).toMatchObject({ type: 'turn-complete' });
    const rollout = await readFile(join(harness.env.CODY_HOME ?? '', 'conversations', `${id}.jsonl`), 'utf8');
    expect(rollout).toContain(GEMINI_KEY);
    // Then the person signs in with Codex (HOME/.codex/auth.json) and sets the key (harness.env has it).
    await mkdir(join(harness.home, '.codex'), { recursive: true });
    await writeFile(
      join(harness.home, '.codex', 'auth.json'),
      JSON.stringify({ tokens: { access_token: CHATGPT_ACCESS, refresh_token: 'chatgpt-refresh-2n3b4v5c' } }),
    );
  });
  afterEach(async () => {
    await harness.close();
  });

  it('cody export --redact replaces configured keys and sign-in tokens, in every format', async () => {
    for (const format of ['md', 'json', 'html'] as const) {
      const io = fakeIo(harness.env, harness.home);
      expect(await runExport({ id, format, redact: true }, io)).toBe(0);
      expect(io.out()).toContain('[REDACTED]');
      expect(io.out()).not.toContain(GEMINI_KEY);
      expect(io.out()).not.toContain(CHATGPT_ACCESS);
    }
    const plain = fakeIo(harness.env, harness.home);
    await runExport({ id, format: 'md' }, plain);
    expect(plain.out()).toContain(GEMINI_KEY);
  });

  it('/export writes them redacted too', async () => {
    const io = fakeIo(harness.env, harness.home);
    const context = await createContext(io, { create: false });
    try {
      const file = await exportConversation(context, id, 'json', harness.home);
      const text = await readFile(file, 'utf8');
      expect(text).toContain(`keep [REDACTED] and [REDACTED]`);
    } finally {
      await context.dispose();
    }
  });
});
