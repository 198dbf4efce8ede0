/**
 * Canonical items → Anthropic request bodies, as input → expected tables. Every converted body must also
 * pass the fake provider's validator, which rejects what the real Messages API rejects.
 */
import { describe, expect, it } from 'vitest';
import type { MessageCreateParamsStreaming } from '@anthropic-ai/sdk/resources/messages';
import type { ResponseItem, ToolSpec } from '../../../src/protocol/index.js';
import { AnthropicTurnBuilder } from '../../../src/providers/anthropic-messages/anthropic-turn-builder.js';
import {
  convertToAnthropicRequest,
  DEFAULT_ANTHROPIC_MAX_TOKENS,
} from '../../../src/providers/anthropic-messages/convert-to-anthropic-messages.js';
import { toAnthropicToolId } from '../../../src/providers/anthropic-messages/to-anthropic-tool-id.js';
import { anthropicMessagesProtocol } from '../../fake-provider/anthropic-messages.js';
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

const MODEL = 'claude-sonnet-4-6';
const PNG = 'data:image/png;base64,iVBORw0KGgo=';
const SIGNATURE = 'EuYDCmMIDBgCKkC05Zda4P+Cdk/LQKE+Aol4ZY3EY4w=';

/** The tools a conversation offers: Anthropic takes tool blocks only in a request that defines tools. */
const TOOLS: ToolSpec[] = [{ name: 'shell', description: 'Run a command', parameters: { type: 'object' } }];

function convert(items: ResponseItem[], tools: ToolSpec[] = TOOLS, model = MODEL) {
  return convertToAnthropicRequest({ items, tools, model });
}

/** The fake provider's verdict on a body: undefined when the real API would accept it. */
function rejection(body: unknown): string | undefined {
  const verdict = anthropicMessagesProtocol.validate({
    url: new URL('http://127.0.0.1/v1/messages'),
    body: body as Record<string, unknown>,
    headers: {},
  });
  return verdict === undefined ? undefined : JSON.stringify(verdict.body);
}

const thinking = (text: string, signature = SIGNATURE) =>
  reasoning('', {
    content: [{ type: 'reasoning_text', text }],
    origin: origin('anthropic-messages', 'claude-haiku-4-5-20251001'),
    provider_data: { signature },
  });

describe('convertToAnthropicRequest: messages', () => {
  const cases: Array<{
    name: string;
    items: ResponseItem[];
    system?: string;
    messages: MessageCreateParamsStreaming['messages'];
    warnings?: RegExp[];
  }> = [
    {
      name: 'leading system and developer messages join into the top-level system',
      items: [system('You are Cody.'), developer('Use tools.'), user('hi')],
      system: 'You are Cody.\n\nUse tools.',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
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
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'hello' }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: '<developer_instructions>\nNow be terse.\n</developer_instructions>' },
            { type: 'text', text: 'go' },
          ],
        },
      ],
    },
    {
      name: 'consecutive same-role messages merge into one turn',
      items: [user('one'), user('two'), assistant('three'), assistant('four'), user('five')],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'one' },
            { type: 'text', text: 'two' },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'three' },
            { type: 'text', text: 'four' },
          ],
        },
        { role: 'user', content: [{ type: 'text', text: 'five' }] },
      ],
    },
    {
      name: 'parallel tool calls: tool_use blocks in one assistant turn, results first in the next user turn',
      items: [
        user('look around'),
        assistant('Let me check.'),
        call('toolu_A', 'shell', '{"command":"ls"}'),
        call('toolu_B', 'read_file', '{"path":"a.txt"}'),
        output('toolu_A', 'a.txt'),
        output('toolu_B', 'hello'),
        user('thanks'),
      ],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'look around' }] },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Let me check.' },
            { type: 'tool_use', id: 'toolu_A', name: 'shell', input: { command: 'ls' } },
            { type: 'tool_use', id: 'toolu_B', name: 'read_file', input: { path: 'a.txt' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_A', content: 'a.txt' },
            { type: 'tool_result', tool_use_id: 'toolu_B', content: 'hello' },
            { type: 'text', text: 'thanks' },
          ],
        },
      ],
    },
    {
      name: 'a call without an output gets an aborted result',
      items: [user('run it'), call('toolu_A', 'shell', '{"command":"sleep 99"}'), user('never mind')],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'run it' }] },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_A', name: 'shell', input: { command: 'sleep 99' } }],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_A', content: 'aborted' },
            { type: 'text', text: 'never mind' },
          ],
        },
      ],
    },
    {
      name: 'an assistant turn with only tool calls has no empty text block',
      items: [user('hi'), assistant(''), call('toolu_A', 'list_dir', ''), output('toolu_A', '')],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_A', name: 'list_dir', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_A' }] },
      ],
    },
    {
      name: 'images: base64 from data: URLs, url source for https:, tool results with text and image',
      items: [
        user('what is this?', image(PNG), image('https://example.com/cat.jpg')),
        call('toolu_A', 'screenshot', '{}'),
        output('toolu_A', [
          { type: 'input_text', text: 'captured' },
          { type: 'input_image', image_url: 'data:image/jpeg;base64,/9j/4AAQ' },
        ]),
      ],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'what is this?' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
          ],
        },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_A', name: 'screenshot', input: {} }] },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 'toolu_A',
              content: [
                { type: 'text', text: 'captured' },
                { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: '/9j/4AAQ' } },
              ],
            },
          ],
        },
      ],
    },
    {
      name: 'images Anthropic cannot take are left out with a warning',
      items: [
        user('files', image('data:application/pdf;base64,JVBERi0='), image('http://example.com/a.png')),
      ],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'files' }] }],
      warnings: [/image was left out/, /image was left out/],
    },
    {
      name: "Claude's own thinking is replayed first in its assistant turn, signature unchanged",
      items: [
        user('weather?'),
        thinking('The user wants the weather.'),
        assistant('Checking.'),
        call('toolu_A', 'weather', '{"city":"Paris"}'),
        output('toolu_A', 'sunny'),
      ],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'weather?' }] },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'The user wants the weather.', signature: SIGNATURE },
            { type: 'text', text: 'Checking.' },
            { type: 'tool_use', id: 'toolu_A', name: 'weather', input: { city: 'Paris' } },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_A', content: 'sunny' }] },
      ],
    },
    {
      name: 'redacted thinking goes back as redacted_thinking with its data',
      items: [
        user('hi'),
        reasoning('', {
          origin: origin('anthropic-messages', 'claude-opus-4-5'),
          provider_data: { redacted_data: 'EmwKAhgBEgy3va3pzix' },
        }),
        assistant('hello'),
        user('again'),
      ],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        {
          role: 'assistant',
          content: [
            { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' },
            { type: 'text', text: 'hello' },
          ],
        },
        { role: 'user', content: [{ type: 'text', text: 'again' }] },
      ],
    },
    {
      name: 'reasoning from another provider is dropped, summary and all, with a warning',
      items: [
        user('hi'),
        reasoning('I should greet them.', {
          origin: origin('openai-responses', 'gpt-5'),
          encrypted_content: 'gAAAAB...',
        }),
        reasoning('**Greeting**', {
          origin: origin('gemini', 'gemini-2.5-pro'),
          provider_data: { thoughtSignature: 'CiIB0e2K' },
        }),
        assistant('hello'),
        user('again'),
      ],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'hello' }] },
        { role: 'user', content: [{ type: 'text', text: 'again' }] },
      ],
      warnings: [/2 reasoning item\(s\) were not sent/],
    },
    {
      name: 'Claude thinking without a signature is dropped rather than rejected',
      items: [user('hi'), thinking('unsigned', ''), assistant('hello'), user('again')],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'hello' }] },
        { role: 'user', content: [{ type: 'text', text: 'again' }] },
      ],
      warnings: [/1 reasoning item\(s\) were not sent/],
    },
    {
      name: 'call ids from other APIs are adapted to the tool_use id pattern, the same on both sides',
      items: [
        user('go'),
        call('functions.shell:0', 'shell', '{"command":"ls"}'),
        call('call_abc-123', 'shell', '{"command":"pwd"}'),
        output('functions.shell:0', 'a.txt'),
        output('call_abc-123', '/tmp'),
      ],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'go' }] },
        {
          role: 'assistant',
          content: [
            {
              type: 'tool_use',
              id: toAnthropicToolId('functions.shell:0'),
              name: 'shell',
              input: { command: 'ls' },
            },
            { type: 'tool_use', id: 'call_abc-123', name: 'shell', input: { command: 'pwd' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: toAnthropicToolId('functions.shell:0'), content: 'a.txt' },
            { type: 'tool_result', tool_use_id: 'call_abc-123', content: '/tmp' },
          ],
        },
      ],
    },
    {
      name: 'arguments that are not a JSON object are sent as {} with a warning',
      items: [user('go'), call('toolu_A', 'shell', '{"command": "ls"'), output('toolu_A', 'oops')],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'go' }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_A', name: 'shell', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_A', content: 'oops' }] },
      ],
      warnings: [/not a JSON object/],
    },
    {
      name: 'a history that starts with the assistant gets a placeholder user turn first',
      items: [system('You are Cody.'), assistant('Welcome back.'), user('hi')],
      system: 'You are Cody.',
      messages: [
        { role: 'user', content: [{ type: 'text', text: '(continuing the conversation)' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Welcome back.' }] },
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      ],
      warnings: [/starts with an assistant turn/],
    },
    {
      name: 'ghost snapshots and opaque items are never sent',
      items: [
        user('hi'),
        { type: 'ghost_snapshot', ghost_commit: { id: 'abc' } },
        { type: 'opaque', raw: { type: 'web_search_call' } },
        assistant('hello'),
      ],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'hello' }] },
      ],
    },
  ];

  for (const testCase of cases) {
    it(testCase.name, () => {
      const { body, warnings } = convert(testCase.items);
      expect(body.messages).toEqual(testCase.messages);
      expect(body.system).toEqual(testCase.system);
      expect(warnings).toHaveLength(testCase.warnings?.length ?? 0);
      for (const [index, pattern] of (testCase.warnings ?? []).entries())
        expect(warnings[index]).toMatch(pattern);
      expect(rejection(body)).toBeUndefined();
    });
  }
});

describe('convertToAnthropicRequest: the rest of the body', () => {
  it('caps output at 8,192 tokens by default, streams, and sends tools with their input schema', () => {
    const tools: ToolSpec[] = [
      {
        name: 'shell',
        description: 'Run a command',
        parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
      },
    ];
    const { body } = convert([user('hi')], tools);
    expect(body).toEqual({
      model: MODEL,
      max_tokens: DEFAULT_ANTHROPIC_MAX_TOKENS,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      tools: [
        {
          name: 'shell',
          description: 'Run a command',
          input_schema: {
            type: 'object',
            properties: { command: { type: 'string' } },
            required: ['command'],
          },
        },
      ],
      stream: true,
    });
    expect(DEFAULT_ANTHROPIC_MAX_TOKENS).toBe(8192);
  });

  it('uses the caller’s output cap and leaves out system and tools when there are none', () => {
    const { body } = convertToAnthropicRequest({
      items: [user('hi')],
      tools: [],
      model: MODEL,
      maxOutputTokens: 300,
    });
    expect(body.max_tokens).toBe(300);
    expect('system' in body).toBe(false);
    expect('tools' in body).toBe(false);
  });

  it('sends a placeholder user turn when the history holds only instructions', () => {
    const { body, warnings } = convert([system('You are Cody.')]);
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: '(continuing the conversation)' }] },
    ]);
    expect(warnings).toEqual([expect.stringMatching(/no user or assistant turn/)]);
    expect(rejection(body)).toBeUndefined();
  });
});

describe('toAnthropicToolId', () => {
  it.each([
    ['toolu_01LtHJmixrs9NcWQkK8hu8hj', 'toolu_01LtHJmixrs9NcWQkK8hu8hj'],
    ['call_abc-123', 'call_abc-123'],
  ])('keeps the valid id %s unchanged', (id, expected) => {
    expect(toAnthropicToolId(id)).toBe(expected);
  });

  it('adapts ids with other characters to the pattern, deterministically and without collisions', () => {
    const dotted = toAnthropicToolId('get.weather.1');
    const underscored = toAnthropicToolId('get_weather_1');
    expect(dotted).toMatch(/^[a-zA-Z0-9_-]+$/);
    expect(dotted).toMatch(/^get_weather_1_[0-9a-z]+$/);
    expect(toAnthropicToolId('get.weather.1')).toBe(dotted);
    expect(dotted).not.toBe(underscored);
    expect(toAnthropicToolId('')).toMatch(/^call_[0-9a-z]+$/);
    expect(toAnthropicToolId('x'.repeat(300)).length).toBeLessThanOrEqual(128);
  });
});

describe('AnthropicTurnBuilder', () => {
  it('puts a tool result before user text already in the turn, after earlier results', () => {
    const turns = new AnthropicTurnBuilder();
    turns.append('user', [{ type: 'text', text: 'go' }]);
    turns.append('assistant', [{ type: 'tool_use', id: 'a', name: 'x', input: {} }]);
    turns.append('user', [{ type: 'text', text: 'by the way' }]);
    turns.addToolResult({ type: 'tool_result', tool_use_id: 'a', content: 'one' });
    expect(turns.build([]).at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'a', content: 'one' },
        { type: 'text', text: 'by the way' },
      ],
    });
  });

  it('puts thinking after the thinking already leading the assistant turn, before anything else', () => {
    const turns = new AnthropicTurnBuilder();
    turns.append('user', [{ type: 'text', text: 'go' }]);
    turns.addThinking({ type: 'thinking', thinking: 'first', signature: 's1' });
    turns.append('assistant', [{ type: 'text', text: 'answer' }]);
    turns.addThinking({ type: 'redacted_thinking', data: 'r2' });
    expect(turns.build([]).at(-1)?.content).toEqual([
      { type: 'thinking', thinking: 'first', signature: 's1' },
      { type: 'redacted_thinking', data: 'r2' },
      { type: 'text', text: 'answer' },
    ]);
  });
});
