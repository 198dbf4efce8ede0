/** The fake provider's Responses module speaks (and refuses) like the real API. */
import { describe, expect, it } from 'vitest';
import { withFakeServer } from '../fake-server.js';

const server = withFakeServer();

async function post(body: unknown): Promise<{ status: number; contentType: string | null; text: string }> {
  const response = await fetch(`${server.url}/v1/responses`, {
    method: 'POST',
    headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    text: await response.text(),
  };
}

describe('fake Responses: streams', () => {
  it('sends named events with increasing sequence numbers, reasoning with encrypted content, and no [DONE]', async () => {
    server.enqueue({
      type: 'reply',
      reasoning: 'Short plan.',
      text: 'Hello there, friend.',
      toolCalls: [{ id: 'call_1', name: 'ls', arguments: { path: '.' } }],
    });
    const response = await post({
      model: 'gpt-5',
      stream: true,
      store: false,
      include: ['reasoning.encrypted_content'],
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }],
    });
    expect(response.contentType).toBe('text/event-stream; charset=utf-8');
    expect(response.text).not.toContain('[DONE]');
    const frames = response.text.split('\n\n').filter((frame) => frame !== '');
    const events = frames.map((frame) => {
      const [eventLine, dataLine] = frame.split('\n');
      const data = JSON.parse(dataLine?.slice('data: '.length) ?? '') as Record<string, unknown>;
      expect(eventLine).toBe(`event: ${String(data.type)}`);
      expect(Object.keys(data).slice(0, 2)).toEqual(['type', 'sequence_number']);
      return data;
    });
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_event, index) => index));
    const types = events.map((event) => event.type);
    expect(types.slice(0, 2)).toEqual(['response.created', 'response.in_progress']);
    expect(types.at(-1)).toBe('response.completed');
    for (const type of [
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_part.done',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
    ]) {
      expect(types).toContain(type);
    }
    const done = events
      .filter((event) => event.type === 'response.output_item.done')
      .map((event) => event.item as Record<string, unknown>);
    expect(done.map((item) => item.type)).toEqual(['reasoning', 'message', 'function_call']);
    expect(done[0]?.encrypted_content).toMatch(/^gAAAAB/);
    expect(events.at(-1)).toMatchObject({
      response: { status: 'completed', usage: { input_tokens: 10, output_tokens: 5 } },
    });
  });

  it('leaves out encrypted content when the request does not include it, and answers JSON when not streaming', async () => {
    server.enqueue({ type: 'reply', reasoning: 'Plan.', text: 'Done.' });
    const response = await post({ model: 'o3', input: 'hi' });
    expect(response.contentType).toBe('application/json');
    const body = JSON.parse(response.text) as { object: string; output: Array<Record<string, unknown>> };
    expect(body.object).toBe('response');
    expect(body.output.map((item) => item.type)).toEqual(['reasoning', 'message']);
    expect(body.output[0]).not.toHaveProperty('encrypted_content');
  });
});

describe('fake Responses: what the real API rejects', () => {
  const message = (role: string, type: string, text: string): unknown => ({
    type: 'message',
    role,
    content: [{ type, text }],
  });
  const cases: Array<{ name: string; body: unknown; error: string }> = [
    { name: 'no model', body: { input: 'hi' }, error: "Missing required parameter: 'model'." },
    { name: 'no input', body: { model: 'gpt-5' }, error: "Missing required parameter: 'input'." },
    {
      name: 'an output whose call is not earlier in the input',
      body: {
        model: 'gpt-5',
        input: [
          message('user', 'input_text', 'hi'),
          { type: 'function_call_output', call_id: 'call_1', output: 'x' },
          { type: 'function_call', call_id: 'call_1', name: 'ls', arguments: '{}' },
        ],
      },
      error: 'No tool call found for function call output with call_id call_1.',
    },
    {
      name: 'reasoning without encrypted content while store is false',
      body: {
        model: 'gpt-5',
        store: false,
        input: [message('user', 'input_text', 'hi'), { type: 'reasoning', id: 'rs_1', summary: [] }],
      },
      error:
        "Item with id 'rs_1' not found. Items are not persisted when `store` is set to false. Try again with `store` set to true, or remove this item from your input.",
    },
    {
      name: 'input_text in an assistant message',
      body: {
        model: 'gpt-5',
        input: [message('user', 'input_text', 'hi'), message('assistant', 'input_text', 'hello')],
      },
      error: "Invalid value: 'input_text'. Supported values are: 'output_text' and 'refusal'.",
    },
  ];

  it.each(cases)('$name', async ({ body, error }) => {
    const response = await post(body);
    expect(response.status).toBe(400);
    expect(JSON.parse(response.text)).toMatchObject({
      error: { message: error, type: 'invalid_request_error' },
    });
  });
});
