/**
 * The terminal and a tab on one conversation see the same live turn (issue 23): a page is open on a
 * conversation, `cody chat --conversation <id>` runs a turn on it in another process, and the page shows
 * the reply as it streams — before the `cody chat` process ends — with no Stop button it could not
 * honour; the finished turn is the one recorded. A question that turn asks is shown on the page
 * read-only (it is answered in the terminal), and goes once it is answered there.
 */
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { REPO_ROOT } from '../e2e/harness.js';
import { apiCall, SCREENSHOTS, startWebSuite, type WebSuite } from './harness.js';

let suite: WebSuite;

beforeAll(async () => {
  suite = await startWebSuite({ chunkDelayMs: 40 });
});
afterAll(async () => suite?.close());

function words(count: number, prefix: string): string[] {
  return Array.from({ length: count }, (_, index) => `${prefix}${index + 1} `);
}

/** A conversation with one finished turn, open in the page. */
async function openConversation(page: Page): Promise<string> {
  const { id } = (await apiCall(suite.serve, 'POST', '/conversations', {})) as { id: string };
  await page.goto(`${suite.serve.url}/?c=${id}`);
  await page.locator('.conversation[data-state="idle"]').waitFor();
  return id;
}

async function turnEnded(page: Page): Promise<void> {
  await page.locator('.conversation[data-state="idle"]').waitFor({ timeout: 20_000 });
  await page.locator('.live-turn').waitFor({ state: 'detached' });
}

describe('a turn run in the terminal, watched in the browser', () => {
  it('streams in the page before cody chat ends, without a Stop button, and matches the recorded turn', async () => {
    const { page, harness } = suite;
    const id = await openConversation(page);
    const reply = words(60, 'k');
    harness.server.enqueue({ type: 'reply', textDeltas: reply });
    let chatEnded = false;
    const chat = harness.cody(['chat', '--conversation', id, 'from the terminal']).then((result) => {
      chatEnded = true;
      return result;
    });
    const live = page.locator('.live-turn .message.assistant');
    await live.getByText('k3', { exact: false }).waitFor({ timeout: 20_000 });
    expect(chatEnded).toBe(false);
    expect(await page.locator('.live-turn .message.user').innerText()).toContain('from the terminal');
    // It is the terminal's turn: the page says so and offers no Stop (nor does Esc stop it).
    expect(await page.locator('.composer .running-elsewhere').innerText()).toBe('Running in the terminal');
    expect(await page.locator('.composer .stop').count()).toBe(0);
    await page.keyboard.press('Escape');
    await page.screenshot({ path: join(SCREENSHOTS, 'web-terminal-turn.png') });

    const result = await chat;
    expect(result.code, result.stderr).toBe(0);
    await turnEnded(page);
    const shown = await page.locator('.message.assistant').last().innerText();
    expect(shown.trim()).toBe(reply.join('').trim());
    expect(result.stdout.trim()).toBe(reply.join('').trim());
    expect(await page.locator('.message.user').getByText('from the terminal').count()).toBe(1);
    // What the page shows is what was recorded: the same after a reload.
    await page.reload();
    await page.locator('.conversation[data-state="idle"]').waitFor();
    expect((await page.locator('.message.assistant').last().innerText()).trim()).toBe(reply.join('').trim());
  });

  it("shows a terminal turn's approval read-only, and drops it once the terminal answers", async () => {
    const { page, harness } = suite;
    const id = await openConversation(page);
    harness.server.enqueue(
      { type: 'reply', toolCalls: [{ id: 'call_t', name: 'shell', arguments: { command: 'rm -rf build' } }] },
      { type: 'reply', text: 'Answered in the terminal.' },
    );
    // A program on the engine that asks, as the REPL does, and answers once told to (the file appears).
    const go = join(harness.home, 'answer-now');
    const script = [
      `import { existsSync } from 'node:fs';`,
      `import { createCody } from ${JSON.stringify(join(REPO_ROOT, 'dist/src/core/index.js'))};`,
      `const cody = createCody({ approvalPolicy: 'ask', approvalTimeoutMs: 0 });`,
      `const conversation = await cody.open(${JSON.stringify(id)});`,
      `for await (const event of conversation.submit('clean up')) {`,
      `  if (event.type !== 'approval-requested') continue;`,
      `  while (!existsSync(${JSON.stringify(go)})) await new Promise((resolve) => setTimeout(resolve, 20));`,
      `  cody.respond(event.id, 'deny', 'not from here');`,
      `}`,
      `await cody.close();`,
    ].join('\n');
    const terminal = spawn(process.execPath, ['--input-type=module', '-e', script], {
      cwd: harness.home,
      env: harness.env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    terminal.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => terminal.once('exit', resolve));

    const card = page.locator('.approval-card');
    await card.waitFor({ timeout: 20_000 });
    expect(await card.locator('.approval-command').innerText()).toBe('rm -rf build');
    expect(await card.locator('.approval-elsewhere').innerText()).toBe(
      'Waiting for an answer in the terminal that runs this turn.',
    );
    expect(await card.locator('button').count()).toBe(0);
    await writeFile(go, '');
    await card.waitFor({ state: 'detached', timeout: 20_000 });
    expect(await exited, stderr).toBe(0);
    await turnEnded(page);
    expect(await page.locator('.message.assistant').last().innerText()).toContain(
      'Answered in the terminal.',
    );
  });
});
