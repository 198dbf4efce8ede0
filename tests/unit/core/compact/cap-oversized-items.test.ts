import { describe, expect, it } from 'vitest';
import { capOversizedItems } from '../../../../src/core/compact/cap-oversized-items.js';
import { heuristicEstimator } from '../../../../src/core/tokens/index.js';
import { assistant, call, codePointEstimator, output, system, textOf, user } from './history-builders.js';
import { compactWith } from './compact-with.js';
import { ScriptedClient } from './scripted-client.js';

describe('capOversizedItems', () => {
  const estimator = codePointEstimator();

  it('cuts a message or tool output over the cap in the middle and leaves the rest alone', () => {
    const small = user('short');
    const huge = user(`HEAD${'x'.repeat(10_000)}TAIL`);
    const bigOutput = output('c1', `START${'y'.repeat(10_000)}END`);
    const bigCall = call('c1', 'shell', JSON.stringify({ command: 'z'.repeat(10_000) }));
    const capped = capOversizedItems([small, huge, bigCall, bigOutput], 200, estimator);
    expect(capped[0]).toBe(small);
    expect(capped[2]).toBe(bigCall);
    expect(estimator.countItem(capped[1] ?? small)).toBeLessThanOrEqual(200);
    expect(textOf(capped[1])).toMatch(/^HEADx+…\d+ tokens truncated…x+TAIL$/);
    const cappedOutput = capped[3];
    if (cappedOutput?.type !== 'function_call_output' || typeof cappedOutput.output !== 'string') {
      throw new Error('expected a string tool output');
    }
    expect(cappedOutput.output).toMatch(/^START.*tokens truncated.*END$/);
    expect(cappedOutput.call_id).toBe('c1');
  });
});

describe('compaction of a history holding one message larger than the window', () => {
  it('summarises a truncated copy of it instead of leaving it out', async () => {
    const history = [
      system('You are Cody.'),
      user('first question'),
      assistant('first answer'),
      user(`BEGINNING ${'lorem ipsum '.repeat(400_000)} ENDING`),
    ];
    const client = new ScriptedClient([{ text: 'summary' }]);
    const outcome = await compactWith({
      history,
      client,
      estimator: heuristicEstimator(),
      contextWindow: 100_000,
      autoCompactLimit: 80_000,
    });
    expect(outcome.status).toBe('compacted');
    const sent = client.requests[0]?.items ?? [];
    const huge = sent.find((item) => item.type === 'message' && textOf(item).startsWith('BEGINNING'));
    expect(huge && textOf(huge)).toMatch(/ENDING$/);
    expect(heuristicEstimator().countItem(huge ?? history[0]!)).toBeLessThanOrEqual(50_000);
    // The older turn still fits beside it.
    expect(sent.some((item) => item.type === 'message' && textOf(item) === 'first question')).toBe(true);
  });
});
