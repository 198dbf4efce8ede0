/**
 * Issue 34 in Chromium (one browser, the viewport resized): at 390×844 (a phone) and 768×1024 (a tablet
 * upright) nothing scrolls sideways — the list (a drawer, opened and closed with a real button), a
 * conversation with the plan and an approval card with its diff, a failure, the composer; and failures
 * keep the message and say why: a first message with no key stays in the box, leaves no empty
 * conversation, names how to add a key and says so again after a reload; a provider that is down is
 * recorded, shown after a reload, and offers Retry, which sends the message again.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apiCall, SCREENSHOTS, startWebSuite, type WebSuite } from './harness.js';

const PHONE = { width: 390, height: 844 };
const TABLET = { width: 768, height: 1024 };
const DESKTOP = { width: 1280, height: 800 };

let suite: WebSuite;

beforeAll(async () => {
  suite = await startWebSuite({ chunkDelayMs: 2 });
  // No retries: a provider that is down fails the turn at once (config.json is read at each turn).
  await suite.harness.writeConfig({ provider: 'openai', model: 'gpt-4.1-mini', retry: { maxRetries: 0 } });
});
afterAll(async () => suite?.close());

/**
 * What is wider than the screen: the page itself (it would scroll sideways), or a part that shows
 * (the transcript, the header, the composer, a card…) running past the edge or scrolling inside.
 */
async function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const found = [];
    const root = document.scrollingElement;
    if (root.scrollWidth > root.clientWidth) found.push('page ' + root.scrollWidth + ' > ' + root.clientWidth);
    const parts = '.drawer-bar, .conversation-list, .conversation-header, .transcript, .conversation-panel, '
      + '.approval-card, .plan, .failure, .composer, .choose-model, .message';
    for (const element of document.querySelectorAll(parts)) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || getComputedStyle(element).visibility === 'hidden') continue;
      if (box.left < -1 || box.right > innerWidth + 1 || element.scrollWidth > element.clientWidth + 1)
        found.push(element.className + ' ' + Math.round(box.left) + '..' + Math.round(box.right));
    }
    return found;
  })()`);
}

async function fitsAt(page: Page, sizes: Array<{ width: number; height: number }>): Promise<void> {
  for (const size of sizes) {
    await page.setViewportSize(size);
    await expect.poll(() => overflowing(page), { message: `${size.width}×${size.height}` }).toEqual([]);
  }
}

function composer(page: Page) {
  return page.locator('.composer textarea');
}

describe('a phone, a tablet, and failures that keep the message', () => {
  it('the list is a drawer with a real button; nothing scrolls sideways on the new-conversation screen', async () => {
    const { page } = suite;
    await page.setViewportSize(PHONE);
    const toggle = page.getByRole('button', { name: 'Conversations' });
    const list = page.getByRole('navigation', { name: 'Conversations' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await expect.poll(() => list.isVisible()).toBe(false);
    await toggle.click();
    await list.getByRole('button', { name: 'New conversation' }).waitFor();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    expect(await toggle.getAttribute('aria-controls')).toBe(await list.getAttribute('id'));
    await fitsAt(page, [PHONE, TABLET]);
    await list.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => list.isVisible()).toBe(false);
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    // Esc closes it too.
    await toggle.click();
    await expect.poll(() => list.isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => list.isVisible()).toBe(false);
    await fitsAt(page, [TABLET, PHONE]);
    // Wide, the list is a column and the drawer's button is gone.
    await page.setViewportSize(DESKTOP);
    expect(await list.isVisible()).toBe(true);
    expect(await toggle.isVisible()).toBe(false);
    await page.setViewportSize(PHONE);
  }, 30_000);

  it('a first message with no key stays in the box, leaves no conversation, says how to add a key, after a reload too', async () => {
    const { page, serve } = suite;
    const before = ((await apiCall(serve, 'GET', '/conversations')) as { conversations: unknown[] })
      .conversations.length;
    // OpenRouter: no key in this environment, none stored.
    await page.getByLabel('Provider').selectOption('openrouter');
    await composer(page).fill('hello without a key');
    await composer(page).press('Enter');
    // Back on a new conversation (the one just made is gone), with the reason.
    await expect.poll(() => new URL(page.url()).search, { timeout: 15_000 }).toBe('');
    const failure = page.locator('section.new .failure[role=alert]');
    await failure.waitFor({ timeout: 15_000 });
    expect(await failure.locator('.failure-title').innerText()).toMatch(/No API key/);
    expect(await failure.innerText()).toContain('cody auth login');
    expect(await failure.innerText()).toContain('OPENROUTER_API_KEY');
    await expect.poll(() => composer(page).inputValue()).toBe('hello without a key');
    const after = (await apiCall(serve, 'GET', '/conversations')) as { conversations: unknown[] };
    expect(after.conversations).toHaveLength(before);
    await expect.poll(() => page.locator('.conversation-item').count()).toBe(before);
    // Sent again as it was: the provider chosen stays chosen.
    await expect.poll(() => page.getByLabel('Provider').inputValue()).toBe('openrouter');
    await fitsAt(page, [TABLET, PHONE]);
    await page.screenshot({ path: join(SCREENSHOTS, 'web-phone-no-key.png') });

    await page.reload();
    await page.locator('.failure').waitFor();
    expect(await page.locator('.failure-title').innerText()).toMatch(/No API key/);
    expect(await composer(page).inputValue()).toBe('hello without a key');
    await expect.poll(() => page.getByLabel('Provider').inputValue()).toBe('openrouter');
  }, 30_000);

  it('a provider that is down: the reason is recorded and shown after a reload, Retry sends the message again', async () => {
    const { page, harness } = suite;
    await page.goto(`${suite.serve.url}/`);
    // The unsent first message above is still in the box, its provider chosen: back to the default.
    await expect.poll(() => page.getByLabel('Provider').inputValue()).toBe('openrouter');
    await page.getByLabel('Provider').selectOption('');
    harness.server.enqueue({ type: 'error', status: 503 });
    await composer(page).fill('is the provider up?');
    await composer(page).press('Enter');
    await page.waitForURL(/\?c=/);
    const recorded = page.locator('.failure').filter({ hasText: 'The provider is down' });
    await recorded.waitFor({ timeout: 15_000 });
    // The error's own words while the page saw it fail (the status), and Retry.
    expect(await page.locator('.live-turn .notice.error').innerText()).toMatch(/503/);
    await fitsAt(page, [PHONE, TABLET]);
    await page.reload();
    await recorded.waitFor();
    const retry = recorded.getByRole('button', { name: 'Retry' });
    expect(await retry.isVisible()).toBe(true);
    harness.server.enqueue({ type: 'reply', text: 'Up again.' });
    await retry.click();
    await page.locator('.message.assistant').getByText('Up again.').waitFor({ timeout: 15_000 });
    await page.locator('.conversation[data-state="idle"]').waitFor();
    // Read again from the transcript: the last turn answered, so no Retry is offered any more.
    await expect.poll(() => page.locator('.retry').count()).toBe(0);
    const bodies = harness.server.modelRequests().map((request) => JSON.stringify(request.body));
    expect(bodies.at(-1)).toContain('is the provider up?');
  }, 40_000);

  it('a conversation with the plan and an approval card with its diff fits a phone and a tablet', async () => {
    const { page, harness } = suite;
    const plan = {
      explanation: 'Write the greeting, then check it',
      plan: [
        { step: 'Write hello.txt with a greeting long enough to wrap on a phone', status: 'in_progress' },
        { step: 'Read it back', status: 'pending' },
      ],
    };
    const content = `${'a line of the greeting that is much longer than a phone is wide, '.repeat(3)}\nend\n`;
    harness.server.enqueue(
      { type: 'reply', toolCalls: [{ id: 'plan_p', name: 'update_plan', arguments: plan }] },
      {
        type: 'reply',
        text: 'Writing `hello.txt` — see https://example.com/a/really/long/address/that/does/not/break/anywhere/at/all',
        toolCalls: [{ id: 'call_w', name: 'write_file', arguments: { path: 'hello.txt', content } }],
      },
      { type: 'reply', text: 'Done.' },
    );
    await page.goto(`${suite.serve.url}/`);
    await composer(page).fill('write a greeting');
    await composer(page).press('Enter');
    const card = page.locator('.approval-card');
    await card.waitFor({ timeout: 15_000 });
    await page.locator('.plan .plan-step').first().waitFor();
    expect(await card.locator('.diff-add').count()).toBeGreaterThan(0);
    await fitsAt(page, [TABLET, PHONE]);
    await page.screenshot({ path: join(SCREENSHOTS, 'web-phone-approval.png') });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: join(SCREENSHOTS, 'web-phone-approval-dark.png') });
    // The card's buttons are in reach on the phone.
    await card.getByRole('button', { name: 'Yes, once' }).click();
    await page.locator('.message.assistant').getByText('Done.').waitFor({ timeout: 15_000 });
    await fitsAt(page, [PHONE, TABLET]);
    await page.setViewportSize(DESKTOP);
    await page.screenshot({ path: join(SCREENSHOTS, 'web-conversation-dark.png') });
    await page.emulateMedia({ colorScheme: 'light' });
    // The drawer with conversations in it, over the conversation.
    await page.setViewportSize(PHONE);
    await page.getByRole('button', { name: 'Conversations' }).click();
    await page.locator('.conversation-item').first().waitFor();
    await expect.poll(() => overflowing(page)).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, 'web-phone-drawer.png') });
    await page.keyboard.press('Escape');
  }, 40_000);
});
