/**
 * update_plan (issue 22, part 3) through createCody on the fake provider: the tool is offered in each
 * API's own shape with the system prompt's guidance, a call never asks (even under read-only), each call
 * is a `plan-updated` event and the conversation's status, the rollout keeps Codex's function-call line,
 * a resumed conversation gets the plan back, and `cody serve` has it on its events and its state route.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCody } from '../../src/index.js';
import type { SessionEvent } from '../../src/core/conversation/session-events.js';
import { startCodyServer } from '../../src/server/http-server.js';
import { apiClient } from '../server/sse-client.js';
import { createHarness, type Harness, REPO_ROOT } from './harness.js';

const schema = JSON.parse(readFileSync(join(REPO_ROOT, 'schema/stream-json.schema.json'), 'utf8')) as object;
const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);

const FIRST = {
  explanation: 'Three steps',
  plan: [
    { step: 'Read the code', status: 'in_progress' },
    { step: 'Fix the bug', status: 'pending' },
    { step: 'Run the tests', status: 'pending' },
  ],
};
const SECOND = {
  plan: [
    { step: 'Read the code', status: 'completed' },
    { step: 'Fix the bug', status: 'in_progress' },
    { step: 'Run the tests', status: 'pending' },
  ],
};

const APIS = [
  { provider: 'openai', api: 'chat', model: 'gpt-4.1-mini', wire: 'openai-chat' },
  { provider: 'openai', api: 'responses', model: 'gpt-4.1-mini', wire: 'openai-responses' },
  { provider: 'anthropic', api: 'messages', model: 'claude-sonnet-4-6', wire: 'anthropic-messages' },
  { provider: 'google', api: 'gemini', model: 'gemini-2.5-flash', wire: 'gemini' },
] as const;

type Json = Record<string, unknown>;

/** The update_plan spec as the request carried it, in each API's shape: its name and its parameters. */
function planSpec(wire: string, body: Json): { name: unknown; parameters: Json } | undefined {
  const tools = (body.tools ?? []) as Json[];
  switch (wire) {
    case 'openai-chat': {
      const found = tools.find((tool) => (tool.function as Json).name === 'update_plan');
      const fn = found?.function as Json | undefined;
      return fn ? { name: fn.name, parameters: fn.parameters as Json } : undefined;
    }
    case 'openai-responses': {
      const found = tools.find((tool) => tool.name === 'update_plan');
      return found ? { name: found.name, parameters: found.parameters as Json } : undefined;
    }
    case 'anthropic-messages': {
      const found = tools.find((tool) => tool.name === 'update_plan');
      return found ? { name: found.name, parameters: found.input_schema as Json } : undefined;
    }
    default: {
      const declarations = tools.flatMap((tool) => (tool.functionDeclarations ?? []) as Json[]);
      const found = declarations.find((declaration) => declaration.name === 'update_plan');
      return found ? { name: found.name, parameters: found.parametersJsonSchema as Json } : undefined;
    }
  }
}

describe('update_plan', () => {
  let harness: Harness;
  beforeEach(async () => {
    harness = await createHarness();
  });
  afterEach(async () => {
    await harness.close();
  });

  const script = (): void => {
    harness.server.enqueue(
      { type: 'reply', toolCalls: [{ id: 'plan_1', name: 'update_plan', arguments: FIRST }] },
      { type: 'reply', toolCalls: [{ id: 'plan_2', name: 'update_plan', arguments: SECOND }] },
      { type: 'reply', text: 'Working on it.' },
    );
  };

  it.each(APIS)(
    'is offered on $wire, never asks, emits plan-updated, is recorded as Codex records it and restored on resume',
    async (selection) => {
      // read-only: the strictest policy still lets the model keep its plan.
      await harness.writeConfig({
        provider: selection.provider,
        api: selection.api,
        model: selection.model,
        approval: 'read-only',
      });
      script();
      const cody = createCody({ home: harness.env.CODY_HOME, env: harness.env, cwd: harness.home });
      const conversation = await cody.create();
      const events: SessionEvent[] = [];
      for await (const event of conversation.submit('fix the bug')) events.push(event);
      expect(events.at(-1)).toMatchObject({ type: 'turn-complete', status: 'completed' });
      expect(events.filter((event) => event.type === 'approval-requested')).toEqual([]);
      const plans = events.filter((event) => event.type === 'plan-updated');
      expect(plans).toEqual([
        { type: 'plan-updated', callId: 'plan_1', ...FIRST },
        { type: 'plan-updated', callId: 'plan_2', ...SECOND },
      ]);
      expect(conversation.status().plan).toEqual(SECOND);
      await cody.close();

      const requests = harness.server.modelRequests(selection.wire);
      expect(requests).toHaveLength(3);
      const spec = planSpec(selection.wire, requests[0]?.body as Json);
      expect(spec?.name).toBe('update_plan');
      const properties = JSON.stringify(spec?.parameters).toLowerCase();
      for (const word of ['explanation', 'plan', 'step', 'status']) expect(properties).toContain(`"${word}"`);
      expect(JSON.stringify(requests[0]?.body)).toContain('call update_plan first');
      // The model is told the plan was set.
      expect(JSON.stringify(requests[1]?.body)).toContain('Plan updated');

      const lines = (await harness.rollout(conversation.id)).map((line) => JSON.parse(line) as Json);
      const calls = lines
        .map((line) => line.payload as Json)
        .filter((payload) => payload.type === 'function_call' && payload.name === 'update_plan');
      expect(calls.map((call) => JSON.parse(String(call.arguments)) as unknown)).toEqual([FIRST, SECOND]);
      expect(calls.map((call) => call.call_id)).toEqual(['plan_1', 'plan_2']);

      const resumed = createCody({ home: harness.env.CODY_HOME, env: harness.env, cwd: harness.home });
      try {
        expect((await resumed.open(conversation.id)).status().plan).toEqual(SECOND);
      } finally {
        await resumed.close();
      }
      harness.server.reset();
    },
    60_000,
  );

  it('reaches cody serve clients: plan-updated on the event stream and the plan on the state route', async () => {
    await harness.writeConfig({ provider: 'openai', api: 'chat', model: 'gpt-4.1-mini' });
    script();
    const engine = createCody({ home: harness.env.CODY_HOME, env: harness.env, cwd: harness.home });
    const server = await startCodyServer({
      engine,
      token: 'plan-token',
      host: '127.0.0.1',
      port: 0,
      env: harness.env,
    });
    try {
      const api = apiClient(server.url, 'plan-token');
      const created = await api.request('POST', '/conversations', {});
      const id = String(created.json.id);
      const before = await api.request('GET', `/conversations/${id}/state`);
      expect(before.json.plan).toBeNull();
      const stream = await api.events(`/conversations/${id}/events`);
      const accepted = await api.request('POST', `/conversations/${id}/messages`, { text: 'fix the bug' });
      expect(accepted.status, accepted.text).toBe(202);
      const messages = await stream.until((event) => event.type === 'turn-complete', 30_000);
      stream.close();
      const plans = messages
        .map((message) => JSON.parse(message.data) as Json)
        .filter((event) => event.type === 'plan-updated');
      expect(plans).toEqual([
        { type: 'plan-updated', conversationId: id, callId: 'plan_1', ...FIRST },
        { type: 'plan-updated', conversationId: id, callId: 'plan_2', ...SECOND },
      ]);
      const state = await api.request('GET', `/conversations/${id}/state`);
      expect(state.json.plan).toEqual(SECOND);
      expect((state.json.status as Json).plan).toEqual(SECOND);
    } finally {
      await server.close();
      await engine.close();
    }
  }, 60_000);

  it('the built cody chat streams plan-updated lines that match the stream-json schema', async () => {
    await harness.writeConfig({ provider: 'openai', api: 'responses', model: 'gpt-4.1-mini' });
    script();
    const run = await harness.cody(['chat', '--output-format', 'stream-json', 'fix the bug']);
    expect(run.code, run.stderr).toBe(0);
    const events = run.stdout
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Json);
    for (const event of events) expect(validate(event), JSON.stringify(validate.errors)).toBe(true);
    const plans = events.filter((event) => event.type === 'plan-updated');
    expect(plans.map(({ plan, explanation }) => ({ plan, explanation }))).toEqual([
      { plan: FIRST.plan, explanation: FIRST.explanation },
      { plan: SECOND.plan, explanation: undefined },
    ]);
    const id = String(events[0]?.conversationId);
    const recorded = (await harness.rollout(id))
      .map((line) => (JSON.parse(line) as { payload: Json }).payload)
      .filter((payload) => payload.type === 'function_call' && payload.name === 'update_plan');
    expect(recorded).toHaveLength(2);
  }, 60_000);
});
