import { describe, expect, it } from 'vitest';
import type { ResponseItem } from '../../../src/protocol/index.js';
import {
  convertToOpenAIResponsesRequest,
  OPENAI_RESPONSES_WARNINGS,
} from '../../../src/providers/openai-responses/convert-to-openai-responses-input.js';
import {
  assistant,
  call,
  developer,
  image,
  origin,
  output,
  reasoning,
  system,
  user,
} from '../item-builders.js';

const MODEL = 'gpt-5';
const SAME = origin('openai-responses', 'gpt-5-2025-08-07');

function convert(items: ResponseItem[], model = MODEL): ReturnType<typeof convertToOpenAIResponsesRequest> {
  return convertToOpenAIResponsesRequest({ items, tools: [], model });
}

const userInput = (text: string): unknown => ({
  type: 'message',
  role: 'user',
  content: [{ type: 'input_text', text }],
});
const assistantInput = (text: string): unknown => ({
  type: 'message',
  role: 'assistant',
  content: [{ type: 'output_text', text, annotations: [] }],
});

describe('convertToOpenAIResponsesRequest: instructions and messages', () => {
  it('joins leading system/developer messages into instructions; later ones stay input messages', () => {
    const { body } = convert([
      system('You are Cody.'),
      developer('Be brief.'),
      user('hi'),
      developer('Now use tools.'),
    ]);
    expect(body.instructions).toBe('You are Cody.\n\nBe brief.');
    expect(body.input).toEqual([
      userInput('hi'),
      { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Now use tools.' }] },
    ]);
  });

  it('sends no instructions when there is no leading system message', () => {
    expect(convert([user('hi')]).body.instructions).toBeUndefined();
  });

  it('sends user images as input_image parts and assistant text as output_text parts', () => {
    const { body } = convert([
      user('what is this?', image('data:image/png;base64,AAAA'), image('https://x.test/a.png', 'high')),
      assistant('A cat.'),
      user('thanks'),
      user('bye'),
    ]);
    expect(body.input).toEqual([
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: 'what is this?' },
          { type: 'input_image', image_url: 'data:image/png;base64,AAAA', detail: 'auto' },
          { type: 'input_image', image_url: 'https://x.test/a.png', detail: 'high' },
        ],
      },
      assistantInput('A cat.'),
      userInput('thanks'),
      userInput('bye'),
    ]);
  });

  it('replays an assistant phase only to the model that produced it', () => {
    const withPhase = { ...assistant('Looking.'), origin: SAME, provider_data: { phase: 'commentary' } };
    expect(convert([user('go'), withPhase]).body.input).toEqual([
      userInput('go'),
      {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Looking.', annotations: [] }],
        phase: 'commentary',
      },
    ]);
    expect(convert([user('go'), withPhase], 'gpt-4.1').body.input).toEqual([
      userInput('go'),
      assistantInput('Looking.'),
    ]);
  });
});

describe('convertToOpenAIResponsesRequest: calls and outputs', () => {
  it('sends parallel calls and their outputs as items; an fc_ id only to the model that issued it', () => {
    const items = [
      user('weather?'),
      call('call_a', 'weather', '{"city":"Paris"}', { id: 'fc_a', origin: SAME }),
      call('call_b', 'weather', '', { id: 'fc_b', origin: SAME }),
      output('call_a', 'sunny'),
      output('call_b', [{ type: 'input_text', text: 'rain' }, image('data:image/png;base64,BBBB')]),
    ];
    expect(convert(items).body.input).toEqual([
      userInput('weather?'),
      {
        type: 'function_call',
        call_id: 'call_a',
        name: 'weather',
        arguments: '{"city":"Paris"}',
        id: 'fc_a',
      },
      { type: 'function_call', call_id: 'call_b', name: 'weather', arguments: '{}', id: 'fc_b' },
      { type: 'function_call_output', call_id: 'call_a', output: 'sunny' },
      {
        type: 'function_call_output',
        call_id: 'call_b',
        output: [
          { type: 'input_text', text: 'rain' },
          { type: 'input_image', image_url: 'data:image/png;base64,BBBB' },
        ],
      },
    ]);
    const elsewhere = convert(items, 'o3').body.input;
    const calls = Array.isArray(elsewhere) ? elsewhere.filter((item) => item.type === 'function_call') : [];
    expect(calls).toHaveLength(2);
    expect(calls.map((item) => 'id' in item && item.id)).toEqual([false, false]);
  });

  it('never sends ids of calls from another API', () => {
    const items = [
      user('go'),
      call('toolu_1', 'ls', '{}', { id: 'fc_lookalike', origin: origin('openai-chat', 'gpt-5') }),
      output('toolu_1'),
    ];
    expect(convert(items).body.input).toContainEqual({
      type: 'function_call',
      call_id: 'toolu_1',
      name: 'ls',
      arguments: '{}',
    });
  });

  it('answers a call that never got an output with an aborted output and drops orphan outputs', () => {
    expect(convert([user('go'), call('call_1'), output('call_zzz'), user('stop')]).body.input).toEqual([
      userInput('go'),
      { type: 'function_call', call_id: 'call_1', name: 'shell', arguments: '{"command":"ls"}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'aborted' },
      userInput('stop'),
    ]);
  });
});

describe('convertToOpenAIResponsesRequest: reasoning', () => {
  it('replays reasoning from the same model family with its id and encrypted content', () => {
    const { body, warnings } = convert([
      user('compute'),
      reasoning('Multiplying.', { id: 'rs_1', encrypted_content: 'gAAAA-secret', origin: SAME }),
      call('call_1', 'calc', '{"x":1}', { id: 'fc_1', origin: SAME }),
      output('call_1', '2'),
    ]);
    expect(body.input).toEqual([
      userInput('compute'),
      {
        type: 'reasoning',
        id: 'rs_1',
        summary: [{ type: 'summary_text', text: 'Multiplying.' }],
        encrypted_content: 'gAAAA-secret',
      },
      { type: 'function_call', call_id: 'call_1', name: 'calc', arguments: '{"x":1}', id: 'fc_1' },
      { type: 'function_call_output', call_id: 'call_1', output: '2' },
    ]);
    expect(warnings).toEqual([]);
  });

  it.each([
    [
      'another provider',
      reasoning('Thinking in Claude.', {
        origin: origin('anthropic-messages', 'claude-sonnet-4-6'),
        provider_data: { signature: 'sig' },
      }),
    ],
    [
      'another model family',
      reasoning('Thinking in o3.', {
        id: 'rs_2',
        encrypted_content: 'gAAAA',
        origin: origin('openai-responses', 'o3'),
      }),
    ],
    ['the same model but without encrypted content', reasoning('No blob.', { id: 'rs_3', origin: SAME })],
    [
      'an imported Codex rollout (encrypted for the account Codex ran under)',
      reasoning('Codex thought.', {
        id: 'rs_4',
        encrypted_content: 'gAAAA-codex',
        origin: { ...SAME, foreign: true },
      }),
    ],
  ])('drops reasoning from %s, with one warning, and the ids of the calls it led to', (_name, item) => {
    const { body, warnings } = convert([
      user('go'),
      item,
      reasoning('Second thought.', { origin: origin('anthropic-messages', 'claude-sonnet-4-6') }),
      call('call_1', 'ls', '{}', { id: 'fc_1', origin: SAME }),
      output('call_1'),
    ]);
    expect(body.input).toEqual([
      userInput('go'),
      { type: 'function_call', call_id: 'call_1', name: 'ls', arguments: '{}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'ok' },
    ]);
    expect(warnings).toEqual([OPENAI_RESPONSES_WARNINGS.droppedReasoning]);
  });

  it('drops silently reasoning with nothing readable', () => {
    const { warnings } = convert([
      user('go'),
      reasoning('', { encrypted_content: 'x', origin: origin('openai-responses', 'o3') }),
      assistant('ok'),
    ]);
    expect(warnings).toEqual([]);
  });

  it('drops reasoning that is not followed by the output it led to (a turn cut short)', () => {
    const { body } = convert([
      user('go'),
      reasoning('Started thinking.', { id: 'rs_1', encrypted_content: 'gAAAA', origin: SAME }),
      user('hello?'),
    ]);
    expect(body.input).toEqual([userInput('go'), userInput('hello?')]);
  });
});

describe('convertToOpenAIResponsesRequest: request options', () => {
  it('is stateless, asks a reasoning model for encrypted reasoning, and sends tools (strict: false) and max_output_tokens', () => {
    const { body } = convertToOpenAIResponsesRequest({
      items: [user('hi')],
      tools: [{ name: 'shell', description: 'Run a command', parameters: { type: 'object' } }],
      model: 'gpt-5',
      reasoning: true,
      maxOutputTokens: 1000,
    });
    expect(body).toEqual({
      model: 'gpt-5',
      input: [userInput('hi')],
      stream: true,
      store: false,
      include: ['reasoning.encrypted_content'],
      tools: [
        {
          type: 'function',
          name: 'shell',
          description: 'Run a command',
          parameters: { type: 'object' },
          strict: false,
        },
      ],
      max_output_tokens: 1000,
    });
    expect(convert([user('hi')]).body.tools).toBeUndefined();
  });

  it('asks a model without reasoning for no encrypted reasoning (OpenAI answers that with a 400)', () => {
    const { body } = convertToOpenAIResponsesRequest({
      items: [user('hi')],
      tools: [],
      model: 'gpt-4.1-mini',
    });
    expect(body).toEqual({ model: 'gpt-4.1-mini', input: [userInput('hi')], stream: true, store: false });
  });
});
