/**
 * Issue 22 in a real terminal (tmux): an `@shot.png` mention and a pasted absolute image path attach the
 * image (said on screen, sent as an `image_url` data URL on the Chat Completions wire); `/init` sends the
 * built-in prompt that asks for an AGENTS.md; the `cody --resume` picker lists the current workspace's
 * conversations before newer ones from elsewhere.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../e2e/harness.js';
import { startTmux, type TmuxSession } from './tmux.js';

/** A real 1×1 PNG. */
const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const PNG = Buffer.from(PNG_BASE64, 'base64');

interface ChatBody {
  messages: Array<{ role: string; content: unknown }>;
}

/** The status line that ends a turn, then the next prompt: keys typed before that prompt could be lost. */
const TURN_END = /\$0\.\d+\s*\n› /;

describe('project features in the REPL (tmux)', () => {
  let harness: Harness;
  let tmux: TmuxSession | undefined;
  beforeEach(async () => {
    harness = await createHarness({ chunkDelayMs: 5 });
  });
  afterEach(async () => {
    await tmux?.kill();
    tmux = undefined;
    await harness.close();
  });

  const start = async (args: string[], cwd: string): Promise<TmuxSession> => {
    tmux = await startTmux({ args, env: harness.env, cwd, columns: 120, rows: 40 });
    return tmux;
  };
  const lastUserContent = (): unknown => {
    const body = harness.server.modelRequests('openai-chat').at(-1)?.body as ChatBody;
    return body.messages.filter((message) => message.role === 'user').at(-1)?.content;
  };
  const imageParts = (content: unknown): string[] =>
    (Array.isArray(content) ? (content as Array<Record<string, unknown>>) : [])
      .filter((part) => part.type === 'image_url')
      .map((part) => String((part.image_url as { url?: unknown } | undefined)?.url));

  it('attaches an @-mentioned image and a pasted absolute image path', async () => {
    await writeFile(join(harness.home, 'shot.png'), PNG);
    await mkdir(join(harness.home, 'pics'));
    await writeFile(join(harness.home, 'pics', 'dropped.png'), PNG);
    // Named .png but not an image by its bytes: a pasted path to it stays text.
    await writeFile(join(harness.home, 'fake.png'), 'not a png');
    const term = await start([], harness.home);
    await term.waitFor('›');

    await term.send('@shot.png describe', { literal: true });
    await term.send('Enter');
    await term.waitFor(`attached image @shot.png (${PNG.length} bytes)`);
    await term.waitFor(TURN_END, 20_000);
    let content = lastUserContent();
    expect(imageParts(content)).toEqual([`data:image/png;base64,${PNG_BASE64}`]);
    expect(JSON.stringify(content)).toContain('describe');

    const dropped = join(harness.home, 'pics', 'dropped.png');
    await term.paste(dropped);
    await term.send(' and what about this', { literal: true });
    await term.send('Enter');
    await term.waitFor(`attached image ${dropped}`);
    await term.waitFor(/what about this[\s\S]*\$0\.\d+\s*\n› /, 20_000);
    content = lastUserContent();
    expect(imageParts(content)).toEqual([`data:image/png;base64,${PNG_BASE64}`]);
    // The path is taken out of the text it was pasted into (the image part names only the file).
    expect((content as Array<{ text?: string }>)[0]?.text).toBe('and what about this');
    expect(JSON.stringify(content)).not.toContain(dropped);
    const requests = harness.server.modelRequests('openai-chat').length;

    const fake = join(harness.home, 'fake.png');
    await term.paste(fake);
    await term.send(' plain', { literal: true });
    await term.send('Enter');
    await term.waitFor(/plain[\s\S]*\$0\.\d+\s*\n› /, 20_000);
    expect(harness.server.modelRequests('openai-chat')).toHaveLength(requests + 1);
    content = lastUserContent();
    expect(imageParts(content)).toEqual([]);
    expect(JSON.stringify(content)).toContain('fake.png');
    expect(await term.screen()).not.toContain(`attached image ${fake}`);
  }, 90_000);

  it('/init sends the built-in prompt asking for an AGENTS.md', async () => {
    const term = await start([], harness.home);
    await term.waitFor('›');
    await term.send('/init', { literal: true });
    await term.send('Enter');
    await term.waitFor(TURN_END, 20_000);
    const requests = harness.server.modelRequests('openai-chat');
    expect(requests).toHaveLength(1);
    const content = lastUserContent();
    expect(typeof content === 'string' ? content : JSON.stringify(content)).toMatch(
      /^Write an AGENTS\.md file at the root of this repository/,
    );
    expect(JSON.stringify(content)).not.toContain('/init');
  }, 60_000);

  it('the --resume picker lists the current workspace first', async () => {
    const workspace = join(harness.home, 'ws');
    const elsewhere = join(harness.home, 'elsewhere');
    await mkdir(join(workspace, '.git'), { recursive: true });
    await mkdir(elsewhere);
    const run = async (cwd: string, text: string): Promise<void> => {
      // `cody new` there first: `cody chat` alone would continue the active conversation.
      const result = await harness.shell(`cd '${cwd}' && $CODY new && $CODY chat '${text}'`);
      expect(result.code, result.stderr).toBe(0);
    };
    // The workspace's conversation is the older one: newest first alone would list it second.
    await run(workspace, 'about giraffes here');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await run(elsewhere, 'about penguins there');

    const term = await start(['--resume'], workspace);
    const screen = await term.waitFor(/Resume:[\s\S]*penguins/);
    const lines = screen.split('\n');
    const here = lines.findIndex((line) => /giraffes/i.test(line));
    const there = lines.findIndex((line) => /penguins/i.test(line));
    expect(here, screen).toBeGreaterThan(-1);
    expect(here, screen).toBeLessThan(there);
    expect(lines[here]).toMatch(/^› /);
    expect(lines[here]).not.toContain(elsewhere);
    // The other workspace's row names its directory.
    expect(lines[there]).toContain(`(${elsewhere})`);
  }, 60_000);
});
