/**
 * What `cody chat` asks of the Responses API depends on the model: encrypted reasoning only from reasoning
 * models (catalogue, or `models.<m>.reasoning` in config). The fake provider refuses it from any other
 * model with OpenAI's 400, so a wrong guess fails the turn here as it would for real.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness, linesOfType } from './harness.js';

describe('encrypted reasoning, per model, through bin/cody.js', () => {
  let harness: Harness;
  beforeEach(async () => {
    harness = await createHarness();
  });
  afterEach(async () => {
    await harness.close();
  });

  it('is asked of gpt-5, not of gpt-4.1-mini, and config decides for a model', async () => {
    const include = async (model: string): Promise<unknown> => {
      expect(
        (await harness.cody(['set-provider', 'openai', '--api', 'responses', '--model', model])).code,
      ).toBe(0);
      const result = await harness.cody(['chat', `hello ${model}`]);
      expect(result.code, result.stderr).toBe(0);
      const request = harness.server.modelRequests('openai-responses').at(-1);
      expect(request?.rejected).toBeUndefined();
      return (request?.body as Record<string, unknown>).include ?? null;
    };
    expect(await include('gpt-4.1-mini')).toBeNull();
    expect(await include('gpt-5')).toEqual(['reasoning.encrypted_content']);

    // Config says gpt-4.1-mini reasons: Cody asks, and the fake (like OpenAI) refuses with a 400.
    const config = JSON.parse((await harness.shell('cat "$CODY_HOME/config.json"')).stdout) as Record<
      string,
      unknown
    >;
    await harness.writeConfig({ ...config, models: { 'gpt-4.1-mini': { reasoning: true } } });
    // Editing config.json by hand does not move an existing conversation; set-provider does.
    expect((await harness.cody(['set-provider', 'openai', '--model', 'gpt-4.1-mini'])).code).toBe(0);
    const refused = await harness.cody(['chat', 'and now?']);
    expect(refused.code).toBe(5);
    expect(refused.stderr).toContain('Encrypted content is not supported with this model.');
  });

  it('records the approval policy in Codex’s terms and a running token total', async () => {
    await harness.cody(['chat', 'one']);
    await harness.cody(['chat', 'two']);
    const id = JSON.parse((await harness.cody(['list', '--json'])).stdout)[0].id as string;
    const lines = await harness.rollout(id);
    const contexts = linesOfType(lines, 'turn_context').map((line) => line.payload);
    expect(contexts[0]).toMatchObject({ approval_policy: 'untrusted', cody_approval_policy: 'ask' });
    expect(contexts[0]?.sandbox_policy).toMatchObject({ type: expect.any(String) });
    const counts = linesOfType(lines, 'event_msg')
      .map((line) => line.payload)
      .filter((payload) => payload.type === 'token_count')
      .map((payload) => payload.info as Record<string, Record<string, number>>);
    expect(counts).toHaveLength(2);
    const [first, second] = counts;
    expect(second?.total_token_usage?.total_tokens).toBe(
      (first?.last_token_usage?.total_tokens ?? 0) + (second?.last_token_usage?.total_tokens ?? 0),
    );
  });
});

describe('a summary request that fails', () => {
  let harness: Harness;
  beforeEach(async () => {
    harness = await createHarness();
  });
  afterEach(async () => {
    await harness.close();
  });

  it('is a warning that names the provider’s error, not a silent placeholder', async () => {
    await harness.writeConfig({
      provider: 'anthropic',
      api: 'messages',
      model: 'tiny-claude',
      models: { 'tiny-claude': { contextWindow: 4000, maxOutputTokens: 500 } },
    });
    const words = (count: number, word: string): string => `${word} `.repeat(count);
    const first = await harness.cody(['chat', words(1500, 'alpha')]);
    expect(first.code, first.stderr).toBe(0);
    harness.server.enqueue({ type: 'error', status: 400 });
    const second = await harness.cody(['chat', words(1200, 'beta')]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toMatch(/summary request failed \(Invalid request\.\)/);
    const id = JSON.parse((await harness.cody(['list', '--json'])).stdout)[0].id as string;
    const compacted = linesOfType(await harness.rollout(id), 'response_item')
      .map((line) => line.payload)
      .find((payload) => payload.type === 'cody_context_compacted');
    expect(compacted).toMatchObject({ trigger: 'auto', summary_failed: true });
  });
});
