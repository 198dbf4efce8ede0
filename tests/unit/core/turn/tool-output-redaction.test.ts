/**
 * Issue 36 §6: a tool's output is redacted before it enters the history the model is sent. The scripted
 * model reads a workspace file holding every key Cody knows (plain, base64 at three offsets, URL-safe
 * base64, hex in both cases) and runs `base64` / `od` on the credential files; on each of the five wire
 * APIs, no request body the fake provider received, no event and no rollout line can be read back into
 * any 8 bytes in a row of any key; nor does a key a tool wrote into AGENTS.md. One engine, in process,
 * for all five.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCody, type Cody } from '../../../../src/core/engine/cody.js';
import type { SelectionChoice } from '../../../../src/core/conversation/session-surface.js';
import type { SessionEvent } from '../../../../src/core/conversation/session-events.js';
import { FakeProviderServer } from '../../../fake-provider/server.js';
import { readableSecrets } from '../redact/read-back.js';

const REDACTED = '[REDACTED]';
/** No key shape matches these (nothing but "a key Cody knows" can redact them). */
const ENV_KEYS = {
  OPENAI_API_KEY: 'oa-Kq7v+Wz/9xLmB3pT',
  ANTHROPIC_API_KEY: 'an-Hd5s~~??>>Jr8uYc',
  GEMINI_API_KEY: 'gm-Pf2n_Vb6Rt0qXe',
  GOOGLE_API_KEY: 'gg-Zu4c9Oi1Ly7Na',
  AWS_ACCESS_KEY_ID: 'AKIDTESTFAKE4Q8RW2',
  AWS_SECRET_ACCESS_KEY: 'aw-Mx3b/Ge8+Ts1Vo6Dh5Qa',
  AWS_SESSION_TOKEN: 'st-Wn7k2Fp9Yc4Hj1Bz',
  OPENROUTER_API_KEY: 'or-Cv8m5Ld2Sg6Ke3',
};
const STORED_KEY = 'stored-Jt4p9Rw1Xb7Mn';
const CHATGPT = { access_token: 'cg-acc-Qz3r8Tm5Wk', refresh_token: 'cg-ref-Ue6y1Ph4Nc' };
const CLAUDE = { accessToken: 'cl-acc-Bd9f2Gs7Lx', refreshToken: 'cl-ref-Vh5j3Kq8Ro' };
const SECRETS = [...Object.values(ENV_KEYS), STORED_KEY, ...Object.values(CHATGPT), ...Object.values(CLAUDE)];

/** The secret's bytes `offset` bytes into a base64 text, and its hex: the forms the workspace file holds. */
function leakFile(): string {
  const lines = SECRETS.flatMap((secret) => [
    `plain ${secret}`,
    ...[0, 1, 2].flatMap((offset) => {
      const bytes = Buffer.from(`${'#'.repeat(offset)}${secret}!`);
      return [`b64 ${bytes.toString('base64')}`, `b64url ${bytes.toString('base64url')}`];
    }),
    `hex ${Buffer.from(secret).toString('hex')} HEX ${Buffer.from(secret).toString('hex').toUpperCase()}`,
  ]);
  return `visible-marker\n${lines.join('\n')}\n`;
}

/** The secrets any 8 bytes in a row of which can be read back from `text`, plain, as base64 or as hex. */
function readsBack(text: string): string[] {
  return readableSecrets(text, SECRETS);
}

/** Every string value inside a JSON-like value, one per line. */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(stringsOf);
  return [];
}

const APIS: Array<{ name: string; selection: SelectionChoice }> = [
  { name: 'OpenAI Responses', selection: { provider: 'openai', api: 'responses' } },
  { name: 'Chat Completions', selection: { provider: 'openai', api: 'chat' } },
  { name: 'Anthropic Messages', selection: { provider: 'anthropic' } },
  { name: 'Gemini', selection: { provider: 'google' } },
  { name: 'Bedrock Converse', selection: { provider: 'bedrock' } },
];

describe('tool output reaches the model redacted (issue 36 §6)', () => {
  let home: string;
  let cody: Cody;
  const server = new FakeProviderServer();

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'cody-tool-redaction-'));
    const url = await server.start();
    await writeFile(
      join(home, 'config.json'),
      JSON.stringify({ approval: 'full-auto', sandbox: { enabled: false }, baseUrls: { bedrock: url } }),
    );
    await writeFile(join(home, 'auth.json'), JSON.stringify({ keys: { openrouter: STORED_KEY } }));
    await mkdir(join(home, 'codex'));
    await writeFile(join(home, 'codex', 'auth.json'), JSON.stringify({ tokens: CHATGPT }));
    await mkdir(join(home, '.claude'));
    await writeFile(join(home, '.claude', '.credentials.json'), JSON.stringify({ claudeAiOauth: CLAUDE }));
    await writeFile(join(home, 'leak.txt'), leakFile());
    // What a tool wrote into AGENTS.md reaches the model as project instructions, at every turn.
    const key = ENV_KEYS.OPENAI_API_KEY;
    await writeFile(
      join(home, 'AGENTS.md'),
      `Project notes. ${key} ${Buffer.from(key).toString('base64')}\n`,
    );
    cody = createCody({
      home,
      cwd: home,
      env: {
        ...ENV_KEYS,
        PATH: process.env.PATH,
        HOME: home,
        CODEX_HOME: join(home, 'codex'),
        AWS_REGION: 'eu-central-1',
        OPENAI_BASE_URL: `${url}/v1`,
        ANTHROPIC_BASE_URL: url,
        GOOGLE_GEMINI_BASE_URL: url,
      },
    });
  });

  afterAll(async () => {
    await cody.close();
    await server.stop();
    await rm(home, { recursive: true, force: true });
  });

  it('the fixtures: the file and the commands do show every key before redaction', () => {
    expect(readsBack(leakFile()).sort()).toEqual([...SECRETS].sort());
  });

  it('on every wire API: no request body, event or rollout line holds a key in any form', async () => {
    for (const { name, selection } of APIS) {
      server.reset();
      server.enqueue(
        {
          type: 'reply',
          toolCalls: [
            { name: 'read_file', arguments: { path: 'leak.txt' } },
            {
              name: 'shell',
              arguments: {
                command:
                  'base64 auth.json codex/auth.json .claude/.credentials.json; od -An -tx1 -v auth.json; xxd -p codex/auth.json',
              },
            },
          ],
        },
        { type: 'reply', text: 'Read them.' },
      );
      const conversation = await cody.create(selection);
      const events: SessionEvent[] = [];
      for await (const event of conversation.submit('read the keys')) events.push(event);
      expect(events.at(-1), name).toMatchObject({ type: 'turn-complete', status: 'completed' });
      const requests = server.modelRequests();
      expect(requests, name).toHaveLength(2);
      const second = stringsOf(requests[1]?.body).join('\n');
      // The outputs did reach the model, with only the keys gone.
      expect(second, name).toContain('visible-marker');
      expect(second, name).toContain('Project notes.');
      expect(second.split(REDACTED).length, name).toBeGreaterThan(SECRETS.length * 8);
      for (const request of requests) expect(readsBack(stringsOf(request.body).join('\n')), name).toEqual([]);
      expect(readsBack(stringsOf(events).join('\n')), `${name}: events`).toEqual([]);
      const rollout = await readFile(join(home, 'conversations', `${conversation.id}.jsonl`), 'utf8');
      expect(
        readsBack(
          stringsOf(
            rollout
              .split('\n')
              .filter(Boolean)
              .map((line) => JSON.parse(line) as unknown),
          ).join('\n'),
        ),
        `${name}: rollout`,
      ).toEqual([]);
    }
  });
});
