/**
 * The richer parts of an open conversation in Chromium, against the built `cody serve` and the fake
 * provider: approving a write from its card writes the file; denying a command with a reason tells the
 * model that reason (its next request body); a command's output streams into its tool call while it
 * runs and folds once done; the plan checklist and the context meter; saving screenshots of both views.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apiCall, SCREENSHOTS, startWebSuite, type WebSuite } from './harness.js';
import { formatCost } from '../../src/cli/prices.js';
import { costOf } from '../../src/core/index.js';

const FINAL_USAGE = { inputTokens: 20_000, outputTokens: 2_500 };

let suite: WebSuite;

beforeAll(async () => {
  suite = await startWebSuite({ chunkDelayMs: 5 });
});
afterAll(async () => suite?.close());

/** A new conversation opened in the page, and `text` sent from its composer. */
async function sendInNewConversation(page: Page, text: string): Promise<string> {
  const created = (await apiCall(suite.serve, 'POST', '/conversations', {})) as { id: string };
  await page.goto(`${suite.serve.url}/?c=${created.id}`);
  await page.locator('.composer textarea').fill(text);
  await page.locator('.composer textarea').press('Enter');
  return created.id;
}

/** The body of every request the model got, as text (what the model was told). */
function modelRequestBodies(): string[] {
  return suite.harness.server.modelRequests().map((request) => JSON.stringify(request.body));
}

describe('tool calls and approvals in the browser', () => {
  it('approves a write from its card (the diff shown whole, coloured); the file is on disk', async () => {
    const { page, harness } = suite;
    harness.server.enqueue(
      {
        type: 'reply',
        toolCalls: [
          {
            id: 'call_write',
            name: 'write_file',
            arguments: { path: 'hello.txt', content: 'hello from the web page\nsecond line\n' },
          },
        ],
      },
      { type: 'reply', text: 'Wrote hello.txt.' },
    );
    await sendInNewConversation(page, 'write hello.txt');
    const card = page.locator('.approval-card');
    await card.waitFor({ timeout: 15_000 });
    expect(await card.locator('.approval-title').innerText()).toContain('hello.txt');
    expect(await card.locator('.diff-add').allInnerTexts()).toEqual([
      '+hello from the web page',
      '+second line',
      '+',
    ]);
    // "Always" names the scope the server stated; the four choices of the terminal are there.
    expect(await card.locator('.approval-always').innerText()).toMatch(/^Always for .*hello\.txt/);
    expect(await card.locator('.approval-once').isVisible()).toBe(true);
    expect(await card.locator('.approval-no').isVisible()).toBe(true);
    expect(await card.locator('.approval-stop').isVisible()).toBe(true);
    expect(existsSync(join(harness.home, 'hello.txt'))).toBe(false);
    await card.screenshot({ path: join(SCREENSHOTS, 'web-approval-card.png') });

    await card.locator('.approval-once').click();
    await page.locator('.message.assistant').getByText('Wrote hello.txt.').waitFor({ timeout: 15_000 });
    await card.waitFor({ state: 'detached' });
    expect(await readFile(join(harness.home, 'hello.txt'), 'utf8')).toBe(
      'hello from the web page\nsecond line\n',
    );
    const call = page.locator('.tool-call[data-call-id="call_write"]');
    expect(await call.getAttribute('data-status')).toBe('ok');
    expect(await call.locator('.tool-call-headline').innerText()).toBe('write_file hello.txt');
  }, 60_000);

  it('denies a command with a reason: nothing runs and the model is told the reason', async () => {
    const { page, harness } = suite;
    await page.goto(`${suite.serve.url}/`);
    harness.server.reset();
    harness.server.enqueue(
      {
        type: 'reply',
        toolCalls: [{ id: 'call_rm', name: 'shell', arguments: { command: 'rm -rf build' } }],
      },
      { type: 'reply', text: 'Left build alone.' },
    );
    await sendInNewConversation(page, 'clean up');
    const card = page.locator('.approval-card');
    await card.waitFor({ timeout: 15_000 });
    expect(await card.locator('.approval-command').innerText()).toBe('rm -rf build');
    await card.locator('.approval-no').click();
    await card.locator('.approval-deny-reason').fill('keep the build folder, I need it');
    await card.locator('.approval-deny-send').click();
    await page.locator('.message.assistant').getByText('Left build alone.').waitFor({ timeout: 15_000 });

    const bodies = modelRequestBodies();
    expect(bodies).toHaveLength(2);
    expect(bodies[1]).toContain(
      'The user declined to run this tool call and said: keep the build folder, I need it',
    );
    const call = page.locator('.tool-call[data-call-id="call_rm"]');
    expect(await call.getAttribute('data-status')).toBe('denied');
  }, 60_000);

  it('streams a command’s output into its call while it runs, folds it when done; the plan and the meter', async () => {
    const { page, harness } = suite;
    await page.goto(`${suite.serve.url}/`);
    harness.server.reset();
    const plan = {
      explanation: 'Check the tree, then report',
      plan: [
        { step: 'List the files', status: 'completed' },
        { step: 'Count the lines', status: 'in_progress' },
        { step: 'Write the report', status: 'pending' },
      ],
    };
    // It runs until the test has seen its first line live and opens the FIFO `tock.fifo` for writing: a
    // fixed sleep let a loaded machine deliver the output and the end together, so no live state showed.
    await promisify(execFile)('mkfifo', [join(harness.home, 'tock.fifo')]);
    // A second line after `tick`: the live redactor may hold back a short tail that could begin an encoded
    // secret (the server's random token among them) until more output comes, never a line followed by more.
    const command = "printf 'tick\\nwaiting\\n'; cat tock.fifo; printf 'tock\\n'";
    harness.server.enqueue(
      { type: 'reply', toolCalls: [{ id: 'plan_1', name: 'update_plan', arguments: plan }] },
      { type: 'reply', toolCalls: [{ id: 'call_tick', name: 'shell', arguments: { command } }] },
      // The usage the turn ends with: what the meter adds up and prices (gpt-4.1-mini has a list price).
      { type: 'reply', text: 'The clock ticked and tocked.', usage: FINAL_USAGE },
    );
    const id = await sendInNewConversation(page, 'tick tock');

    const card = page.locator('.approval-card');
    await card.waitFor({ timeout: 15_000 });
    expect(await card.locator('.approval-command').innerText()).toBe(command);
    // update_plan is shown as the plan checklist only, never also as a tool row (as in the terminal).
    await page.locator('.plan .plan-step').first().waitFor({ timeout: 10_000 });
    expect(await page.locator('.tool-call[data-call-id="plan_1"]').count()).toBe(0);
    await card.locator('.approval-always').click();

    // Live: the first line is shown while the command still runs.
    const call = page.locator('.tool-call[data-call-id="call_tick"]');
    await call.locator('.tool-call-output pre').getByText('tick').waitFor({ timeout: 10_000 });
    expect(await call.getAttribute('data-status')).toBe('running');
    expect(await call.locator('.tool-call-output pre').innerText()).not.toContain('tock');
    await writeFile(join(harness.home, 'tock.fifo'), '');

    await page
      .locator('.message.assistant')
      .getByText('The clock ticked and tocked.')
      .waitFor({ timeout: 15_000 });
    expect(await call.getAttribute('data-status')).toBe('ok');
    // Folded once done, with the line count and first line in its summary; opened by a click.
    const output = call.locator('details.tool-call-output');
    expect(await output.evaluate((element) => (element as unknown as { open: boolean }).open)).toBe(false);
    expect(await output.locator('summary').innerText()).toMatch(/output · 3 lines — tick/);
    await output.locator('summary').click();
    expect(await output.locator('pre').innerText()).toBe('tick\nwaiting\ntock');
    await call.locator('details.tool-call-arguments summary').click();
    expect(await call.locator('details.tool-call-arguments pre').innerText()).toContain('"command"');

    const steps = page.locator('.plan .plan-step');
    expect(await steps.allInnerTexts()).toEqual([
      '☑ List the files',
      '◐ Count the lines',
      '☐ Write the report',
    ]);
    expect(await page.locator('.plan-count').innerText()).toBe('1/3');
    expect(await page.locator('.plan-explanation').innerText()).toBe(plan.explanation);

    // The meter: tokens of the history against the window, and this page's turn's tokens.
    const state = (await apiCall(suite.serve, 'GET', `/conversations/${id}/state`)) as {
      status: { contextTokens: number; contextWindow: number };
    };
    const meter = page.locator('.context-meter meter');
    expect(Number(await meter.getAttribute('max'))).toBe(state.status.contextWindow);
    expect(Number(await meter.getAttribute('value'))).toBeGreaterThan(0);
    expect(await page.locator('.context-usage').innerText()).toMatch(/↑\d[\d.]*k? ↓\d/);
    // …and their cost, written as the terminal writes it: core's costOf over the usage the turn reported.
    const model = (await apiCall(suite.serve, 'GET', `/conversations/${id}/state`)) as {
      status: { model: string };
    };
    expect(model.status.model).toBe('gpt-4.1-mini');
    const cost = costOf('gpt-4.1-mini', { ...FINAL_USAGE, cachedInputTokens: 0 });
    expect(cost).toBeCloseTo((20_000 * 0.4 + 2_500 * 1.6) / 1e6, 12);
    expect(await page.locator('.context-usage').innerText()).toMatch(/ · \$0\.01$/);
    expect(formatCost(cost ?? 0)).toBe('$0.01');
    await page.screenshot({ path: join(SCREENSHOTS, 'web-plan-and-tools.png') });

    // Reloaded from the transcript: the plan again, and still no tool row for it; the command's row is there.
    await page.reload();
    await page.locator('.tool-call[data-call-id="call_tick"]').waitFor({ timeout: 10_000 });
    expect(await page.locator('.plan .plan-step').count()).toBe(3);
    expect(await page.locator('.tool-call[data-call-id="plan_1"]').count()).toBe(0);
    expect(await page.locator('.tool-call').count()).toBe(1);
  }, 60_000);

  it('opens a long conversation at its end, 80 entries rendered; Show earlier renders the rest', async () => {
    const { page, harness } = suite;
    const id = '01900000-0000-7000-8000-0000000000aa';
    const stamp = '2026-01-01T00:00:00.000Z';
    const line = (type: string, payload: object): string =>
      JSON.stringify({ timestamp: stamp, type, payload });
    const lines = [
      line('session_meta', {
        id,
        timestamp: stamp,
        cwd: harness.home,
        originator: 'cody',
        cli_version: '0.1.0',
        provider: 'openai',
        api: 'openai-chat',
        model: 'gpt-4.1-mini',
        model_provider: 'openai',
      }),
    ];
    for (let turn = 1; turn <= 60; turn += 1) {
      lines.push(
        line('response_item', {
          type: 'message',
          role: 'user',
          content: [{ type: 'input_text', text: `question ${turn}` }],
        }),
        line('response_item', {
          type: 'message',
          role: 'assistant',
          content: [{ type: 'output_text', text: `answer ${turn}` }],
        }),
      );
    }
    const directory = join(harness.env.CODY_HOME ?? '', 'conversations');
    await mkdir(directory, { recursive: true });
    await writeFile(join(directory, `${id}.jsonl`), `${lines.join('\n')}\n`);

    await page.goto(`${suite.serve.url}/?c=${id}`);
    await page.locator('.message.assistant').getByText('answer 60', { exact: true }).waitFor();
    expect(await page.locator('.transcript .message').count()).toBe(80);
    expect(await page.locator('.transcript .message').first().innerText()).toBe('question 21');
    const earlier = page.locator('.show-earlier');
    expect(await earlier.innerText()).toBe('Show 40 earlier of 40');
    await earlier.click();
    expect(await page.locator('.transcript .message').count()).toBe(120);
    expect(await page.locator('.transcript .message').first().innerText()).toBe('question 1');
    expect(await earlier.count()).toBe(0);
    // Fork buttons count turns over the whole conversation, not the rendered part.
    expect(await page.locator('.fork-button').last().getAttribute('data-user-turn')).toBe('60');
  }, 60_000);
});
