/**
 * The open conversation's actions in Chromium against the built `cody serve`: rename (the title the
 * server then lists), switch the model (the next turn's request names it), export as a download (md,
 * json, html: what `cody export` writes), fork from a user message (a new conversation keeping user turns
 * 1..N, opened), and delete (after a confirmation; gone from the server).
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apiCall, startWebSuite, type WebSuite } from './harness.js';

let suite: WebSuite;
let id: string;

beforeAll(async () => {
  suite = await startWebSuite({ chunkDelayMs: 2 });
});
afterAll(async () => suite?.close());

async function turn(page: Page, text: string, reply: string): Promise<void> {
  suite.harness.server.enqueue({ type: 'reply', text: reply });
  await page.locator('.composer textarea').fill(text);
  await page.locator('.composer textarea').press('Enter');
  await page.locator('.message.assistant').getByText(reply).waitFor({ timeout: 15_000 });
  await page.locator('.composer .send').waitFor();
}

type Summary = { id: string; title?: string; model: string; parentId?: string };

describe('conversation actions in the browser', () => {
  it('renames the conversation; the server lists the new title', async () => {
    const { page, serve } = suite;
    id = ((await apiCall(serve, 'POST', '/conversations', {})) as Summary).id;
    await page.goto(`${serve.url}/?c=${id}`);
    await turn(page, 'first question', 'answer one');
    await turn(page, 'second question', 'answer two');

    await page.locator('.action-rename').click();
    await page.locator('.rename-input').fill('Renamed in the browser');
    await page.locator('.rename-form button[type=submit]').click();
    await page.locator('.conversation-title h1').getByText('Renamed in the browser').waitFor();
    expect(((await apiCall(serve, 'GET', `/conversations/${id}`)) as Summary).title).toBe(
      'Renamed in the browser',
    );
    await page.locator('.conversation-item.selected').getByText('Renamed in the browser').waitFor();
  }, 60_000);

  it('switches the model: the next turn asks the new one', async () => {
    const { page, harness } = suite;
    const model = page.locator('.select-model');
    await model.fill('gpt-4o-mini');
    await model.press('Enter');
    await model.blur();
    await expect.poll(async () => model.inputValue()).toBe('gpt-4o-mini');
    harness.server.reset();
    await turn(page, 'third question', 'answer three');
    const requests = harness.server.modelRequests();
    expect(requests.map((request) => request.model)).toEqual(['gpt-4o-mini']);
  }, 60_000);

  it('exports md, json and html as downloads of what the server exports', async () => {
    const { page } = suite;
    for (const format of ['md', 'json', 'html'] as const) {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.locator(`.action-export .export-${format}`).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`cody-${id.slice(0, 8)}.${format}`);
      const text = await readFile((await download.path()) ?? '', 'utf8');
      if (format === 'md') {
        expect(text).toMatch(/^# Renamed in the browser\n/);
        expect(text).toContain('first question');
        expect(text).toContain('answer three');
      } else if (format === 'json') {
        expect(JSON.parse(text)).toMatchObject({ id, title: 'Renamed in the browser' });
      } else {
        expect(text).toMatch(/^<!doctype html>/);
        expect(text).toContain('second question');
      }
    }
  }, 60_000);

  it('forks from the first user message: a new conversation with that turn only, opened', async () => {
    const { page, serve } = suite;
    const buttons = page.locator('.fork-button');
    expect(await buttons.count()).toBe(3);
    await page.locator('.fork-button[data-user-turn="1"]').click();
    await page.waitForURL((url) => url.searchParams.get('c') !== id);
    const forkId = new URL(page.url()).searchParams.get('c') ?? '';
    await page.locator('.message.user').getByText('first question').waitFor();
    const transcript = await page.locator('.transcript').innerText();
    expect(transcript).toContain('answer one');
    expect(transcript).not.toContain('second question');
    expect(((await apiCall(serve, 'GET', `/conversations/${forkId}`)) as Summary).parentId).toBe(id);
  }, 60_000);

  it('offers a fork on every user message of a compacted conversation; the second one forks through it', async () => {
    const { page, serve, harness } = suite;
    const compactedId = ((await apiCall(serve, 'POST', '/conversations', {})) as Summary).id;
    // Long answers, so the summary makes the history smaller (a compaction that would not is skipped).
    const LONG = 'the build passed on every platform we tried today. '.repeat(30).trim();
    await page.goto(`${serve.url}/?c=${compactedId}`);
    await turn(page, 'alpha message', `alpha answer: ${LONG}`);
    await turn(page, 'beta message', `beta answer: ${LONG}`);
    await turn(page, 'gamma message', `gamma answer: ${LONG}`);
    harness.server.enqueue({ type: 'reply', text: 'They said alpha, beta and gamma.' });
    await apiCall(serve, 'POST', `/conversations/${compactedId}/compact`, {});
    await expect
      .poll(
        async () =>
          (
            (await apiCall(serve, 'GET', `/conversations/${compactedId}`)) as Summary & {
              compactionCount?: number;
            }
          ).compactionCount,
        { timeout: 15_000 },
      )
      .toBe(1);
    await turn(page, 'delta message', 'delta answer');

    // Read again from the server: the compaction marker, and a fork button under each of the four messages.
    await page.reload();
    await page.locator('.compaction-marker').first().waitFor({ timeout: 10_000 });
    const turns = await page
      .locator('.fork-button')
      .evaluateAll((buttons) => buttons.map((button) => button.getAttribute('data-user-turn')));
    expect(turns).toEqual(['1', '2', '3', '4']);
    await page.locator('.fork-button[data-user-turn="2"]').click();
    await page.waitForURL((url) => url.searchParams.get('c') !== compactedId);
    const forkId = new URL(page.url()).searchParams.get('c') ?? '';
    await page.locator('.message.user').getByText('beta message').waitFor();
    // The fork's transcript ends at the second message: nothing of the turns after it.
    const transcript = await page.locator('.transcript').innerText();
    expect(transcript).toContain('alpha message');
    for (const later of ['gamma message', 'delta message', 'gamma answer', 'delta answer'])
      expect(transcript).not.toContain(later);
    expect(((await apiCall(serve, 'GET', `/conversations/${forkId}`)) as Summary).parentId).toBe(compactedId);
    const messages = await page.locator('.transcript .message').allInnerTexts();
    expect(messages.at(-1)).toContain('beta message');
  }, 90_000);

  it('offers a fork on a message a compaction summarised away: forking from it opens a fork ending at it', async () => {
    const { page, serve, harness } = suite;
    const compactedId = ((await apiCall(serve, 'POST', '/conversations', {})) as Summary).id;
    // Messages of ~12-15k tokens each: the compaction keeps the newest, part of the one before (20k
    // tokens at most), and drops the oldest from the history; the transcript still shows it.
    const PAD = 'the build passed on every platform we tried. '.repeat(1400);
    await page.goto(`${serve.url}/?c=${compactedId}`);
    await turn(page, `alpha message ${PAD}`, 'alpha answer');
    await turn(page, `beta message ${PAD}`, 'beta answer');
    await turn(page, `gamma message ${PAD}`, 'gamma answer');
    harness.server.enqueue({ type: 'reply', text: 'They said alpha, beta and gamma.' });
    await apiCall(serve, 'POST', `/conversations/${compactedId}/compact`, {});
    // Read from the rollout itself: with a compaction line this long, GET …'s compactionCount stayed 0.
    await expect
      .poll(
        async () => (await harness.rollout(compactedId)).some((line) => line.includes('"type":"compacted"')),
        {
          timeout: 15_000,
        },
      )
      .toBe(true);
    await turn(page, 'delta message', 'delta answer');

    await page.reload();
    await page.locator('.compaction-marker').first().waitFor({ timeout: 10_000 });
    const buttons = await page.locator('.fork-button').evaluateAll((all) =>
      all.map((button) => ({
        turn: button.getAttribute('data-user-turn'),
        entry: button.getAttribute('data-entry'),
      })),
    );
    // A button under each of the four messages; the first one (dropped) is named by its transcript entry.
    expect(buttons).toHaveLength(4);
    expect(buttons[0]).toMatchObject({ turn: null, entry: expect.stringMatching(/^[1-9][0-9]*$/) });
    expect(buttons.at(-1)?.turn).not.toBeNull();
    await page.locator('.fork-button').first().click();
    await page.waitForURL((url) => url.searchParams.get('c') !== compactedId);
    const forkId = new URL(page.url()).searchParams.get('c') ?? '';
    await page.locator('.message.assistant').getByText('alpha answer').waitFor();
    const transcript = await page.locator('.transcript').innerText();
    for (const later of ['beta message', 'gamma message', 'delta message', 'beta answer'])
      expect(transcript).not.toContain(later);
    const users = await page.locator('.transcript .message.user').allInnerTexts();
    expect(users.at(-1)).toContain('alpha message');
    expect(((await apiCall(serve, 'GET', `/conversations/${forkId}`)) as Summary).parentId).toBe(compactedId);
  }, 120_000);

  it('deletes a conversation after a confirmation: gone from the server and the page', async () => {
    const { page, serve } = suite;
    await page.goto(`${serve.url}/?c=${id}`);
    await page.locator('.action-delete').waitFor();
    page.once('dialog', (dialog) => void dialog.dismiss());
    await page.locator('.action-delete').click();
    expect(((await apiCall(serve, 'GET', `/conversations/${id}`)) as Summary).id).toBe(id);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.locator('.action-delete').click();
    await page.waitForURL((url) => url.searchParams.get('c') === null);
    const answer = (await apiCall(serve, 'GET', `/conversations/${id}`)) as { error?: { code: string } };
    expect(answer.error?.code).toBe('conversation-not-found');
    await expect
      .poll(() => page.locator(`.conversation-item`).getByText('Renamed in the browser').count())
      .toBe(0);
  }, 60_000);
});
