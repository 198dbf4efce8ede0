/**
 * What reaches the terminal (issues 7.5 and 7.6): control sequences from a model reply, a rollout or
 * a provider error are shown, never obeyed, in every command and with or without NO_COLOR; and a reply
 * whose stream dropped and was retried is on stdout exactly once.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.js';

/** Sets the window title, rings the bell, clears the screen, moves the cursor; plus C1 CSI and DEL. */
const HOSTILE = '\u001b]0;pwned\u0007\u001b[2J\u001b[H\u009b31m\u007f\rhidden';
// Any control character but newline and tab.
// eslint-disable-next-line no-control-regex
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe('terminal safety (e2e)', () => {
  let harness: Harness;
  beforeEach(async () => {
    harness = await createHarness();
  });
  afterEach(async () => {
    await harness.close();
  });

  it.each([
    ['with NO_COLOR', {}],
    ['without NO_COLOR', { NO_COLOR: undefined }],
  ])('neutralises control characters from a reply and a rollout %s', async (_name, env) => {
    const id = (await harness.cody(['new'])).stdout.trim();
    harness.server.enqueue({ type: 'reply', text: `reply ${HOSTILE} end` });
    const chat = await harness.cody(['chat', `question ${HOSTILE}`], { env });
    expect(chat.code, chat.stderr).toBe(0);
    expect(chat.stdout).toContain('reply ');
    expect(chat.stdout).toContain('^[]0;pwned^G^[[2J');
    const runs = [
      chat,
      await harness.cody(['show', id], { env }),
      await harness.cody(['show', id, '--json'], { env }),
      await harness.cody(['list'], { env }),
      await harness.cody(['list', '--json'], { env }),
      await harness.cody(['status', id], { env }),
    ];
    for (const run of runs) {
      expect(run.code, run.stderr).toBe(0);
      expect(RAW_CONTROL.test(run.stdout), JSON.stringify(run.stdout)).toBe(false);
      expect(RAW_CONTROL.test(run.stderr), JSON.stringify(run.stderr)).toBe(false);
    }
    // The text is still there to read: the person's message as typed, escapes made visible.
    expect(runs[1]?.stdout).toContain('question ^[]0;pwned^G');
  });

  it('neutralises a provider error body in the one-line error', async () => {
    await harness.cody(['new']);
    harness.server.enqueue({
      type: 'error',
      status: 400,
      bodyText: `{"error":{"message":"bad ${HOSTILE}"}}`,
    });
    const chat = await harness.cody(['chat', 'hello']);
    expect(chat.code).not.toBe(0);
    expect(RAW_CONTROL.test(chat.stderr), JSON.stringify(chat.stderr)).toBe(false);
  });

  it('prints a reply retried after a mid-stream drop exactly once on stdout', async () => {
    await harness.writeConfig({ retry: { maxRetries: 3, baseDelayMs: 10, maxDelayMs: 20 } });
    await harness.cody(['new']);
    const text = 'The whole reply, streamed in many small pieces so the drop cuts it in the middle.';
    harness.server.enqueue({ type: 'reply', text, disconnectAfterFrames: 5 }, { type: 'reply', text });
    const chat = await harness.cody(['chat', 'hello']);
    expect(chat.code, chat.stderr).toBe(0);
    expect(harness.server.modelRequests()).toHaveLength(2);
    expect(chat.stdout).toBe(`${text}\n`);
    expect(chat.stderr).toMatch(/Retrying \(1\/3\).*partial reply is discarded/);
  });
});
