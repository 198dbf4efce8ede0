/**
 * In Chromium against `cody serve` and the fake provider (each streamed chunk 40 ms apart): a reply is
 * visible while it streams, Stop ends it, a reload mid-turn picks the turn up, two pages see one turn,
 * and a reply full of HTML and a `javascript:` link renders as text with nothing run.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apiCall, SCREENSHOTS, startWebSuite, type WebSuite } from './harness.js';

let suite: WebSuite;

beforeAll(async () => {
  suite = await startWebSuite({ chunkDelayMs: 40 });
});
afterAll(async () => suite?.close());

/** `count` words as that many deltas: "w1 w2 … wN". */
function words(count: number, prefix = 'w'): string[] {
  return Array.from({ length: count }, (_, index) => `${prefix}${index + 1} `);
}

async function newConversation(page: Page, text: string): Promise<string> {
  await page.locator('.new-conversation').click();
  await page.locator('.composer textarea').fill(text);
  await page.locator('.composer textarea').press('Enter');
  await page.waitForURL(/\?c=/);
  return new URL(page.url()).searchParams.get('c') ?? '';
}

/** Waits for the turn to be over and recorded (the page read the transcript again). */
async function turnEnded(page: Page): Promise<void> {
  await page.locator('.conversation[data-state="idle"]').waitFor();
  await page.locator('.live-turn').waitFor({ state: 'detached' });
}

function assistantText(page: Page): Promise<string> {
  return page.locator('.message.assistant').last().innerText();
}

describe('a conversation in the browser', () => {
  it('streams the reply: text is on screen before the turn ends', async () => {
    const { page, harness } = suite;
    harness.server.enqueue({
      type: 'reply',
      textDeltas: ['Here is **bold** and code:\n\n```js\nconst a = 1;\n```\n\n', ...words(40)],
    });
    await newConversation(page, 'stream please');
    await page.locator('.message.user').getByText('stream please').waitFor();
    await page.locator('.message.assistant').getByText('w3', { exact: false }).waitFor();
    // Still running: the Stop button is there and the last word has not come yet.
    expect(await page.locator('.composer .stop').isVisible()).toBe(true);
    expect(await assistantText(page)).not.toContain('w40');
    await turnEnded(page);
    expect(await assistantText(page)).toContain('w40');
    expect(await page.locator('.message.assistant strong').first().innerText()).toBe('bold');
    expect(await page.locator('.code-block code').first().innerText()).toBe('const a = 1;');
    expect(await page.locator('.code-block .hl-keyword').first().innerText()).toBe('const');
    // The list shows it, with its model.
    await page.locator('.conversation-item.selected').waitFor();
    expect(await page.locator('.conversation-item.selected .item-meta').innerText()).toMatch(/gpt|model/i);
    await page.screenshot({ path: join(SCREENSHOTS, 'web-conversation.png') });
  });

  it('Stop ends the reply mid-stream, recorded as interrupted', async () => {
    const { page, harness } = suite;
    harness.server.enqueue({ type: 'reply', textDeltas: words(300, 's') });
    await newConversation(page, 'a long one');
    await page.locator('.message.assistant').getByText('s2', { exact: false }).waitFor();
    await page.locator('.composer .stop').click();
    await page.locator('.conversation[data-state="idle"]').waitFor({ timeout: 10_000 });
    await page.locator('.failure').getByText('Stopped', { exact: true }).first().waitFor();
    expect(await page.locator('.transcript').innerText()).not.toContain('s300');
  });

  it('a reload mid-turn picks the turn up and sees it finish', async () => {
    const { page, harness } = suite;
    harness.server.enqueue({ type: 'reply', textDeltas: words(60, 'r') });
    const id = await newConversation(page, 'reload me');
    await page.locator('.message.assistant').getByText('r3', { exact: false }).waitFor();
    await page.reload();
    // After the reload: the turn is shown from its start while it runs, then finishes.
    await page.locator('.live-turn .message.assistant').getByText('r1 ', { exact: false }).waitFor();
    expect(await page.locator('.composer .stop').isVisible()).toBe(true);
    await turnEnded(page);
    expect(await assistantText(page)).toContain('r60');
    expect(await page.locator('.message.user').getByText('reload me').count()).toBe(1);
    expect(new URL(page.url()).searchParams.get('c')).toBe(id);
  });

  it('two pages on one conversation both show the turn as it streams', async () => {
    const { page, context, harness } = suite;
    harness.server.enqueue({ type: 'reply', text: 'first' });
    const id = await newConversation(page, 'hello');
    await turnEnded(page);
    const second = await context.newPage();
    await second.goto(`${suite.serve.url}/?c=${id}`);
    await second.locator('.message.assistant').getByText('first').waitFor();
    harness.server.enqueue({ type: 'reply', textDeltas: words(50, 't') });
    await page.locator('.composer textarea').fill('again');
    await page.locator('.composer textarea').press('Enter');
    // The other page sees the turn live: the message and text before the end.
    await second.locator('.live-turn .message.user').getByText('again').waitFor();
    await second.locator('.live-turn .message.assistant').getByText('t2', { exact: false }).waitFor();
    expect(await second.locator('.composer .stop').isVisible()).toBe(true);
    await turnEnded(second);
    expect(await assistantText(second)).toContain('t50');
    await turnEnded(page);
    expect(await assistantText(page)).toContain('t50');
    await second.close();
  });

  it('a page opened mid-turn (not a reload) shows the running turn from its first word', async () => {
    const { page, context, harness } = suite;
    harness.server.enqueue({ type: 'reply', textDeltas: words(60, 'w') });
    const id = await newConversation(page, 'stream it');
    await page.locator('.live-turn .message.assistant').getByText('w8', { exact: false }).waitFor();
    const late = await context.newPage();
    await late.goto(`${suite.serve.url}/?c=${id}`);
    const reply = late.locator('.live-turn .message.assistant');
    await reply.getByText('w3', { exact: false }).waitFor();
    // Still streaming, and from the start: the words sent before this page opened are there.
    expect(await late.locator('.composer .stop').isVisible()).toBe(true);
    expect((await reply.innerText()).trimStart().startsWith('w1 ')).toBe(true);
    expect(await late.locator('.live-turn .message.user').innerText()).toContain('stream it');
    // The turn's own message is shown once (in the live turn, not also in the transcript above it).
    expect(await late.locator('.message.user').getByText('stream it').count()).toBe(1);
    await turnEnded(late);
    expect(await assistantText(late)).toContain('w60');
    await turnEnded(page);
    await late.close();
  });

  it('renders HTML and javascript: links from a reply as text, and runs none of it', async () => {
    const { page, harness } = suite;
    const reply =
      'Try <img src=x onerror="window.__pwned=1"> and <script>window.__pwned=2</script> or ' +
      '[click me](javascript:window.__pwned=3) and [docs](https://example.com/docs).\n\n' +
      '<iframe src="javascript:window.__pwned=4"></iframe>\n';
    harness.server.enqueue({ type: 'reply', text: reply });
    await newConversation(page, 'be evil');
    await turnEnded(page);
    const transcript = page.locator('.transcript');
    await transcript.getByText('<script>window.__pwned=2</script>', { exact: false }).waitFor();
    expect(await transcript.innerText()).toContain('<img src=x onerror="window.__pwned=1">');
    expect(await transcript.innerText()).toContain('<iframe src="javascript:window.__pwned=4"></iframe>');
    expect(await transcript.locator('img, script, iframe').count()).toBe(0);
    expect(await transcript.locator('a[href^="javascript"]').count()).toBe(0);
    await transcript.getByText('click me', { exact: false }).click();
    const link = transcript.locator('a[href="https://example.com/docs"]');
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await page.evaluate('window.__pwned')).toBeUndefined();
    expect(await page.evaluate('window.__cspViolations')).toBeUndefined();
  });

  it('keys: Shift+Enter is a new line, ↑ in an empty box brings back the last message', async () => {
    const { page } = suite;
    const box = page.locator('.composer textarea');
    await box.fill('');
    await box.press('ArrowUp');
    expect(await box.inputValue()).toBe('be evil');
    await box.fill('line one');
    await box.press('Shift+Enter');
    await box.type('line two');
    expect(await box.inputValue()).toBe('line one\nline two');
    await box.fill('');
    // Esc stops a running turn.
    suite.harness.server.enqueue({ type: 'reply', textDeltas: words(300, 'e') });
    await box.fill('stop me with Esc');
    await box.press('Enter');
    await page.locator('.message.assistant').getByText('e2', { exact: false }).waitFor();
    await box.press('Escape');
    await page.locator('.conversation[data-state="idle"]').waitFor({ timeout: 10_000 });
    await page.locator('.failure').getByText('Stopped', { exact: true }).last().waitFor();
    expect(await page.locator('.transcript').innerText()).not.toContain('e300');
  });

  it('lists conversations newest first and filters them with the search box', async () => {
    const { page } = suite;
    const listed = (await apiCall(suite.serve, 'GET', '/conversations')) as { conversations: unknown[] };
    await expect.poll(() => page.locator('.conversation-item').count()).toBe(listed.conversations.length);
    expect(await page.locator('.conversation-item .item-title').first().innerText()).toMatch(/be evil/i);
    await page.locator('input[type=search]').fill('reload');
    await expect.poll(() => page.locator('.conversation-item').count()).toBe(1);
    await page.locator('input[type=search]').fill('');
  });

  it('shows a conversation another client made, without a reload', async () => {
    const { page } = suite;
    const made = (await apiCall(suite.serve, 'POST', '/conversations', {})) as { id: string };
    await apiCall(suite.serve, 'POST', `/conversations/${made.id}/messages`, { text: 'from a program' });
    await page
      .locator(`.conversation-item[data-id="${made.id}"]`)
      .getByText(/from a program/i)
      .waitFor({ timeout: 15_000 });
  });

  it('loaded nothing from another origin', () => {
    expect(suite.foreignRequests).toEqual([]);
  });

  it('asks to sign in again once the server no longer knows the session', async () => {
    const { page } = suite;
    await page.evaluate(
      `fetch('/auth/session', { method: 'DELETE', headers: { 'x-cody-request': '1', 'x-cody-session': sessionStorage.getItem('cody.session') } }).then((r) => r.status)`,
    );
    await page.locator('.new-conversation').click();
    await page.locator('.sign-in').waitFor({ timeout: 15_000 });
    expect(await page.locator('.sign-in [role=alert]').innerText()).toMatch(/sign in again/);
  });
});
