/** A temporary CODY_HOME wired to an in-process fake provider, for the torture suite. */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeProviderServer } from '../fake-provider/server.js';
import type { RecordedRequest } from '../fake-provider/types.js';

export interface TortureHome {
  root: string;
  home: string;
  env: Record<string, string>;
  server: FakeProviderServer;
  rolloutPath(id: string): string;
  rolloutText(id: string): Promise<string>;
  writeConfig(config: Record<string, unknown>): Promise<void>;
  close(): Promise<void>;
}

export async function createTortureHome(options: { chunkDelayMs?: number } = {}): Promise<TortureHome> {
  const root = await mkdtemp(join(tmpdir(), 'cody-torture-'));
  const server = new FakeProviderServer({ chunkDelayMs: options.chunkDelayMs ?? 0 });
  const url = await server.start();
  const home = join(root, '.cody');
  await mkdir(home, { recursive: true, mode: 0o700 });
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: root,
    CODY_HOME: home,
    NO_COLOR: '1',
    OPENAI_BASE_URL: `${url}/v1`,
    ANTHROPIC_BASE_URL: url,
    GOOGLE_GEMINI_BASE_URL: url,
    OPENAI_API_KEY: 'sk-torture-openai',
    ANTHROPIC_API_KEY: 'sk-ant-torture',
    GEMINI_API_KEY: 'gemini-torture',
  };
  const rolloutPath = (id: string): string => join(home, 'conversations', `${id}.jsonl`);
  return {
    root,
    home,
    env,
    server,
    rolloutPath,
    rolloutText: async (id) => readFile(rolloutPath(id), 'utf8').catch(() => ''),
    writeConfig: async (config) => {
      await writeFile(join(home, 'config.json'), JSON.stringify(config), { mode: 0o600 });
    },
    close: async () => {
      await server.stop();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** The text of every message of a request, in order, as [role, text] (any of the four APIs). */
export function requestMessages(request: RecordedRequest): Array<[string, string]> {
  const body = request.body as Record<string, unknown> | undefined;
  if (!body) return [];
  const text = (content: unknown): string => {
    if (typeof content === 'string') return content;
    if (Array.isArray(content))
      return content
        .map((part: unknown) => {
          const record = part as Record<string, unknown>;
          return typeof record.text === 'string' ? record.text : '';
        })
        .join('');
    return '';
  };
  if (Array.isArray(body.messages)) {
    return (body.messages as Array<Record<string, unknown>>).map((message) => [
      String(message.role),
      text(message.content),
    ]);
  }
  if (Array.isArray(body.input)) {
    return (body.input as Array<Record<string, unknown>>)
      .filter((item) => item.type === undefined || item.type === 'message')
      .map((item) => [String(item.role), text(item.content)]);
  }
  if (Array.isArray(body.contents)) {
    return (body.contents as Array<Record<string, unknown>>).map((content) => [
      content.role === 'model' ? 'assistant' : String(content.role),
      text(content.parts),
    ]);
  }
  return [];
}
