/**
 * A bounded run of the torture suite inside `npm test` (the full one is `npm run torture`): 20
 * concurrent writers and a short mixed run, 40 mutated rollouts × 5 commands, every hostile config,
 * every provider fault on the four APIs, the full / read-only CODY_HOME when running as root, and 20
 * `kill -9`s at random moments of slow turns (some during compactions). Every figure that must be 0 is
 * asserted to be 0.
 */
import { describe, expect, it } from 'vitest';
import { runConcurrency } from './concurrency.js';
import { runHostileConfigs } from './hostile-config.js';
import { inconsistentRequests, runKills } from './kills.js';
import { MUTATIONS, mutate, runMutants } from './mutants.js';
import { runProviderFaults } from './provider-faults.js';
import { random } from './run-cody.js';
import { runStorage } from './storage.js';

const SEED = Number(process.env.CODY_TORTURE_SEED ?? 11);

describe('torture (bounded)', () => {
  it('20 kill -9s at random moments: nothing acknowledged lost, every conversation usable, every history consistent', async () => {
    const figures = await runKills({ kills: 20, seed: SEED });
    expect(figures.kills).toBe(20);
    expect(figures.firstFailure).toBeUndefined();
    expect(figures.firstUnusable).toBeUndefined();
    expect(figures).toMatchObject({ acknowledgedLost: 0, unusable: 0, inconsistentRequests: 0 });
  }, 300_000);

  it('20 concurrent writers and a mixed run: no corrupt line, every message exactly once', async () => {
    const figures = await runConcurrency({ writers: 20, mixed: 18, seed: SEED });
    expect(figures).toMatchObject({ corruptLines: 0, notExactlyOnce: 0, failedCommands: 0 });
  }, 240_000);

  it('40 mutated rollouts × 5 commands: no exit 70, stack trace, hang or unexpected change', async () => {
    const figures = await runMutants({ mutants: 40, seed: SEED, hugeBytes: () => 10_000_000 });
    expect(figures.runs).toBe(200);
    expect(figures.firstFailure).toBeUndefined();
    expect(figures).toMatchObject({ exit70: 0, stackTraces: 0, hangs: 0, unexpectedChanges: 0 });
  }, 300_000);

  it('hostile config files are refused with exit 2 in one line, never a hang', async () => {
    const figures = await runHostileConfigs();
    expect(figures.firstFailure).toBeUndefined();
    expect(figures).toMatchObject({ hangs: 0, exit70: 0, stackTraces: 0, notRefused: 0 });
  }, 240_000);

  it('provider faults on the four APIs: right exit code, the reply exactly once, a consistent rollout', async () => {
    const figures = await runProviderFaults();
    expect(figures.scenarios).toBe(28);
    expect(figures.firstFailure).toBeUndefined();
  }, 240_000);

  it('a full or read-only CODY_HOME never sends an unsaved message (root only)', async () => {
    const figures = await runStorage();
    if (figures.skipped) {
      process.stderr.write(`torture: ${figures.skipped}\n`);
      return;
    }
    expect(figures.firstFailure).toBeUndefined();
  }, 120_000);
});

describe('the torture checks themselves', () => {
  it('every mutation changes the rollout', () => {
    const original = Buffer.from(
      `${JSON.stringify({ type: 'session_meta', payload: { id: 'x' } })}\n${JSON.stringify({ type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hello there' }] } })}\n`,
    );
    for (const mutation of MUTATIONS) {
      expect(mutate(original, mutation, random(3), 1_000).equals(original), mutation).toBe(false);
    }
  });

  it('counts a request with two unanswered messages in a row as inconsistent', () => {
    const request = (messages: Array<[string, string]>) => ({
      api: 'openai-chat' as const,
      method: 'POST',
      url: '/v1/chat/completions',
      headers: {},
      body: { messages: messages.map(([role, content]) => ({ role, content })) },
      model: 'gpt-4o',
      stream: true,
      answeredWith: { type: 'reply' as const, text: '' },
    });
    expect(
      inconsistentRequests([
        request([
          ['system', 'You are Cody.'],
          ['user', 'first'],
          ['assistant', 'reply'],
          ['user', 'second'],
        ]),
        request([
          ['user', 'kept'],
          ['user', '[Cody context summary] …'],
          ['user', 'new'],
        ]),
      ]),
    ).toBe(0);
    expect(
      inconsistentRequests([
        request([
          ['user', 'dangling'],
          ['user', 'next'],
        ]),
      ]),
    ).toBe(1);
  });
});
