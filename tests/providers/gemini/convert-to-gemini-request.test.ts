/**
 * Canonical items → Gemini request parameters, as input → expected tables. Every converted request's
 * `contents` must also pass the fake provider's validator, which rejects what the real Gemini API rejects.
 */
import { describe, expect, it } from 'vitest';
import type { Content } from '@google/genai';
import type { ResponseItem } from '../../../src/protocol/index.js';
import {
  convertToGeminiRequest,
  requiresCallSignatures,
  SKIP_THOUGHT_SIGNATURE_VALIDATOR,
} from '../../../src/providers/gemini/convert-to-gemini-request.js';
import { geminiProtocol } from '../../fake-provider/gemini.js';
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

const MODEL = 'gemini-2.5-pro';
const SIGNATURE = 'CiIB0e2Kb6Syj1a961EfbWv4W5C8RgAA';
const PRO = origin('gemini', 'gemini-2.5-pro');

function convert(items: ResponseItem[], model = MODEL) {
  return convertToGeminiRequest({ items, tools: [], model });
}

/** The fake provider's verdict on some contents: undefined when the real API would accept them. */
function rejection(contents: Content[], model = MODEL): string | undefined {
  const verdict = geminiProtocol.validate({
    url: new URL(`http://127.0.0.1/v1beta/models/${model}:streamGenerateContent?alt=sse`),
    body: { contents },
    headers: {},
  });
  return verdict === undefined ? undefined : JSON.stringify(verdict.body);
}

describe('convertToGeminiRequest: contents', () => {
  const cases: Array<{
    name: string;
    items: ResponseItem[];
    model?: string;
    system?: string;
    contents: Content[];
    warnings?: RegExp[];
  }> = [
    {
      name: 'leading system and developer messages join into systemInstruction',
      items: [system('You are Cody.'), developer('Use tools.'), user('hi')],
      system: 'You are Cody.\n\nUse tools.',
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
    },
    {
      name: 'a developer message later in the history stays in place as tagged user text',
      items: [
        system('You are Cody.'),
        user('hi'),
        assistant('hello'),
        developer('Now be terse.'),
        user('go'),
      ],
      system: 'You are Cody.',
      contents: [
        { role: 'user', parts: [{ text: 'hi' }] },
        { role: 'model', parts: [{ text: 'hello' }] },
        {
          role: 'user',
          parts: [
            { text: '<developer_instructions>\nNow be terse.\n</developer_instructions>' },
            { text: 'go' },
          ],
        },
      ],
    },
    {
      name: 'consecutive same-role messages merge into one content',
      items: [user('one'), user('two'), assistant('three'), assistant('four')],
      contents: [
        { role: 'user', parts: [{ text: 'one' }, { text: 'two' }] },
        { role: 'model', parts: [{ text: 'three' }, { text: 'four' }] },
      ],
    },
    {
      name: 'parallel calls in one model content, their responses (named after the calls) first in the next user content',
      items: [
        user('weather in two cities'),
        assistant('Checking both.'),
        call('call_1', 'weather', '{"city":"Paris"}'),
        call('call_2', 'weather', '{"city":"Oslo"}'),
        output('call_1', 'sunny'),
        output('call_2', 'snow'),
        user('thanks'),
      ],
      contents: [
        { role: 'user', parts: [{ text: 'weather in two cities' }] },
        {
          role: 'model',
          parts: [
            { text: 'Checking both.' },
            { functionCall: { id: 'call_1', name: 'weather', args: { city: 'Paris' } } },
            { functionCall: { id: 'call_2', name: 'weather', args: { city: 'Oslo' } } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { id: 'call_1', name: 'weather', response: { output: 'sunny' } } },
            { functionResponse: { id: 'call_2', name: 'weather', response: { output: 'snow' } } },
            { text: 'thanks' },
          ],
        },
      ],
    },
    {
      name: 'a call without an output gets an aborted response',
      items: [user('run it'), call('call_1', 'shell', '{"command":"sleep 99"}'), user('never mind')],
      contents: [
        { role: 'user', parts: [{ text: 'run it' }] },
        {
          role: 'model',
          parts: [{ functionCall: { id: 'call_1', name: 'shell', args: { command: 'sleep 99' } } }],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { id: 'call_1', name: 'shell', response: { output: 'aborted' } } },
            { text: 'never mind' },
          ],
        },
      ],
    },
    {
      name: 'a model turn with only calls has no empty text part',
      items: [user('hi'), assistant(''), call('call_1', 'list_dir', ''), output('call_1', 'a.txt')],
      contents: [
        { role: 'user', parts: [{ text: 'hi' }] },
        { role: 'model', parts: [{ functionCall: { id: 'call_1', name: 'list_dir', args: {} } }] },
        {
          role: 'user',
          parts: [{ functionResponse: { id: 'call_1', name: 'list_dir', response: { output: 'a.txt' } } }],
        },
      ],
    },
    {
      name: 'images: inlineData from data: URLs, fileData for https:, tool images after the responses',
      items: [
        user(
          'what is this?',
          image('data:image/png;base64,iVBORw0KGgo='),
          image('https://example.com/cat.webp?size=2'),
        ),
        call('call_1', 'screenshot', '{}'),
        output('call_1', [
          { type: 'input_text', text: 'captured' },
          { type: 'input_image', image_url: 'data:image/jpeg;base64,/9j/4AAQ' },
        ]),
      ],
      contents: [
        {
          role: 'user',
          parts: [
            { text: 'what is this?' },
            { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
            { fileData: { fileUri: 'https://example.com/cat.webp?size=2', mimeType: 'image/webp' } },
          ],
        },
        { role: 'model', parts: [{ functionCall: { id: 'call_1', name: 'screenshot', args: {} } }] },
        {
          role: 'user',
          parts: [
            { functionResponse: { id: 'call_1', name: 'screenshot', response: { output: 'captured' } } },
            { inlineData: { mimeType: 'image/jpeg', data: '/9j/4AAQ' } },
          ],
        },
      ],
    },
    {
      name: 'thought summaries and signatures go back to the model family that made them, on the parts that carried them',
      items: [
        user('cross the street?'),
        reasoning('**Safety first**', { origin: PRO, provider_data: { thoughtSignature: 'THOUGHT_SIG' } }),
        { ...assistant('Look both ways.'), origin: PRO, provider_data: { thoughtSignature: SIGNATURE } },
        call('call_1', 'map', '{}', {
          origin: origin('gemini', 'gemini-2.5-pro-preview-06-05'),
          provider_data: { thoughtSignature: 'CALL_SIG' },
        }),
        output('call_1', 'ok'),
      ],
      contents: [
        { role: 'user', parts: [{ text: 'cross the street?' }] },
        {
          role: 'model',
          parts: [
            { text: '**Safety first**', thought: true, thoughtSignature: 'THOUGHT_SIG' },
            { text: 'Look both ways.', thoughtSignature: SIGNATURE },
            { functionCall: { id: 'call_1', name: 'map', args: {} }, thoughtSignature: 'CALL_SIG' },
          ],
        },
        {
          role: 'user',
          parts: [{ functionResponse: { id: 'call_1', name: 'map', response: { output: 'ok' } } }],
        },
      ],
    },
    {
      name: 'to another Gemini family, signatures are left off and thought summaries dropped',
      model: 'gemini-2.5-flash',
      items: [
        user('hi'),
        reasoning('**Greeting**', { origin: PRO, provider_data: { thoughtSignature: 'THOUGHT_SIG' } }),
        { ...assistant('hello'), origin: PRO, provider_data: { thoughtSignature: SIGNATURE } },
        user('again'),
      ],
      contents: [
        { role: 'user', parts: [{ text: 'hi' }] },
        { role: 'model', parts: [{ text: 'hello' }] },
        { role: 'user', parts: [{ text: 'again' }] },
      ],
      warnings: [/1 reasoning item\(s\) from another provider or model were not sent/],
    },
    {
      name: 'reasoning from other providers is dropped, summary and all, with a warning',
      items: [
        user('hi'),
        reasoning('I should greet them.', {
          origin: origin('openai-responses', 'gpt-5'),
          encrypted_content: 'gAAAAB',
        }),
        reasoning('', {
          content: [{ type: 'reasoning_text', text: 'Claude thinking' }],
          origin: origin('anthropic-messages', 'claude-sonnet-4-6'),
          provider_data: { signature: 'EuYD' },
        }),
        assistant('hello'),
      ],
      contents: [
        { role: 'user', parts: [{ text: 'hi' }] },
        { role: 'model', parts: [{ text: 'hello' }] },
      ],
      warnings: [/2 reasoning item\(s\)/],
    },
    {
      name: 'a signed message with no text keeps its signature on an empty text part',
      items: [
        user('hi'),
        { ...assistant(''), origin: PRO, provider_data: { thoughtSignature: SIGNATURE } },
        user('again'),
      ],
      contents: [
        { role: 'user', parts: [{ text: 'hi' }] },
        { role: 'model', parts: [{ text: '', thoughtSignature: SIGNATURE }] },
        { role: 'user', parts: [{ text: 'again' }] },
      ],
    },
    {
      name: 'arguments that are not a JSON object are sent as {} with a warning',
      items: [user('go'), call('call_1', 'shell', '[1,2]'), output('call_1', 'oops')],
      contents: [
        { role: 'user', parts: [{ text: 'go' }] },
        { role: 'model', parts: [{ functionCall: { id: 'call_1', name: 'shell', args: {} } }] },
        {
          role: 'user',
          parts: [{ functionResponse: { id: 'call_1', name: 'shell', response: { output: 'oops' } } }],
        },
      ],
      warnings: [/not a JSON object/],
    },
    {
      name: 'a history that starts with the model gets a placeholder user content first',
      items: [assistant('Welcome back.'), user('hi')],
      contents: [
        { role: 'user', parts: [{ text: '(continuing the conversation)' }] },
        { role: 'model', parts: [{ text: 'Welcome back.' }] },
        { role: 'user', parts: [{ text: 'hi' }] },
      ],
      warnings: [/starts with a model turn/],
    },
    {
      name: 'a history of instructions only still sends a user content (Gemini rejects empty contents)',
      items: [system('You are Cody.')],
      system: 'You are Cody.',
      contents: [{ role: 'user', parts: [{ text: '(continuing the conversation)' }] }],
      warnings: [/no user or model turn/],
    },
  ];

  for (const testCase of cases) {
    it(testCase.name, () => {
      const { body, warnings } = convert(testCase.items, testCase.model);
      expect(body.contents).toEqual(testCase.contents);
      expect(body.config.systemInstruction).toEqual(
        testCase.system === undefined ? undefined : { parts: [{ text: testCase.system }] },
      );
      expect(warnings).toHaveLength(testCase.warnings?.length ?? 0);
      for (const [index, pattern] of (testCase.warnings ?? []).entries())
        expect(warnings[index]).toMatch(pattern);
      expect(rejection(body.contents, testCase.model)).toBeUndefined();
    });
  }
});

describe('convertToGeminiRequest: tool-call turns on Gemini 3', () => {
  const GEMINI_3 = 'gemini-3-pro-preview';

  it('gives the first call of a turn from another provider the documented skip signature, with a warning', () => {
    const { body, warnings } = convert(
      [
        user('weather in two cities'),
        call('toolu_1', 'weather', '{"city":"Paris"}', {
          origin: origin('anthropic-messages', 'claude-sonnet-4-6'),
        }),
        call('toolu_2', 'weather', '{"city":"Oslo"}'),
        output('toolu_1', 'sunny'),
        output('toolu_2', 'snow'),
      ],
      GEMINI_3,
    );
    expect(body.contents[1]).toEqual({
      role: 'model',
      parts: [
        {
          functionCall: { id: 'toolu_1', name: 'weather', args: { city: 'Paris' } },
          thoughtSignature: SKIP_THOUGHT_SIGNATURE_VALIDATOR,
        },
        { functionCall: { id: 'toolu_2', name: 'weather', args: { city: 'Oslo' } } },
      ],
    });
    expect(warnings).toEqual([expect.stringMatching(/1 tool-call turn\(s\) .* without a thought signature/)]);
    expect(rejection(body.contents, GEMINI_3)).toBeUndefined();
  });

  it('leaves a turn whose first call carries its own signature as it is, and older models alone', () => {
    const signed = call('call_1', 'pwd', '{}', {
      origin: origin('gemini', GEMINI_3),
      provider_data: { thoughtSignature: 'REAL_SIG' },
    });
    const items = [
      user('where?'),
      signed,
      call('call_2', 'ls', '{}'),
      output('call_1', '/'),
      output('call_2', 'a'),
    ];
    const { body, warnings } = convert(items, GEMINI_3);
    expect(body.contents[1]?.parts?.map((part) => part.thoughtSignature)).toEqual(['REAL_SIG', undefined]);
    expect(warnings).toEqual([]);
    const older = convert(
      [user('go'), call('call_1', 'ls', '{}'), output('call_1', 'a')],
      'gemini-2.5-flash',
    );
    expect(older.body.contents[1]?.parts?.[0]?.thoughtSignature).toBeUndefined();
  });

  it.each([
    ['gemini-3-pro-preview', true],
    ['gemini-3.1-flash', true],
    ['models/gemini-4-argon', true],
    ['gemini-2.5-pro', false],
    ['gemini-flash-latest', false],
  ])('requiresCallSignatures(%s) is %s', (model, expected) => {
    expect(requiresCallSignatures(model)).toBe(expected);
  });
});

describe('convertToGeminiRequest: the rest of the request', () => {
  it('declares tools with their JSON Schema as parametersJsonSchema and caps output when asked', () => {
    const parameters = {
      type: 'object',
      properties: { command: { type: 'string' } },
      required: ['command'],
      additionalProperties: false,
    };
    const { body } = convertToGeminiRequest({
      items: [user('hi')],
      tools: [{ name: 'shell', description: 'Run a command', parameters }],
      model: MODEL,
      maxOutputTokens: 512,
    });
    expect(body).toEqual({
      model: MODEL,
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      config: {
        tools: [
          {
            functionDeclarations: [
              { name: 'shell', description: 'Run a command', parametersJsonSchema: parameters },
            ],
          },
        ],
        maxOutputTokens: 512,
      },
    });
  });

  it('sends no tools, instruction or cap when there are none', () => {
    expect(convert([user('hi')]).body.config).toEqual({});
  });
});
