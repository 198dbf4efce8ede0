import { describe, expect, it } from 'vitest';
import type { ResponseItem } from '../../../src/protocol/index.js';
import {
  convertToOpenAIChatRequest,
  OPENAI_CHAT_WARNINGS,
  TOOL_IMAGE_PLACEHOLDER,
  TOOL_IMAGES_INTRO,
  usesDeveloperRole,
} from '../../../src/providers/openai-chat/convert-to-openai-chat-messages.js';
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

function messagesFor(items: ResponseItem[], model = 'gpt-4.1-mini'): unknown {
  return convertToOpenAIChatRequest({ items, tools: [], model }).body.messages;
}

describe('convertToOpenAIChatRequest: messages', () => {
  const cases: Array<{ name: string; items: ResponseItem[]; model?: string; expected: unknown[] }> = [
    {
      name: 'system and user text as plain strings',
      items: [system('Be brief.'), user('hi')],
      expected: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hi' },
      ],
    },
    {
      name: 'developer becomes system on a model without the developer role',
      items: [developer('Use tools.'), user('hi')],
      expected: [
        { role: 'system', content: 'Use tools.' },
        { role: 'user', content: 'hi' },
      ],
    },
    {
      name: 'leading instructions become one first message, developer on an o-series model',
      items: [system('Be brief.'), developer('Use tools.'), user('hi')],
      model: 'o3-mini',
      expected: [
        { role: 'developer', content: 'Be brief.\n\nUse tools.' },
        { role: 'user', content: 'hi' },
      ],
    },
    {
      name: 'leading instructions become one system message on a model without the developer role',
      items: [system('Be brief.'), developer('Use tools.'), user('hi')],
      expected: [
        { role: 'system', content: 'Be brief.\n\nUse tools.' },
        { role: 'user', content: 'hi' },
      ],
    },
    {
      name: 'a system message mid-history (an imported Codex compaction) stays in place as tagged user text',
      items: [
        system('Be brief.'),
        user('hi'),
        assistant('Hello.'),
        system('The sandbox changed.'),
        user('go on'),
      ],
      expected: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'Hello.' },
        {
          role: 'user',
          content: '<system_instructions>\nThe sandbox changed.\n</system_instructions>',
        },
        { role: 'user', content: 'go on' },
      ],
    },
    {
      name: 'assistant text and parallel calls merge into one assistant message',
      items: [
        user('weather in Paris and Rome?'),
        assistant('Checking both.'),
        call('call_a', 'weather', '{"city":"Paris"}'),
        call('call_b', 'weather', '{"city":"Rome"}'),
        output('call_a', 'sunny'),
        output('call_b', 'rain'),
        assistant('Paris is sunny, Rome rainy.'),
      ],
      expected: [
        { role: 'user', content: 'weather in Paris and Rome?' },
        {
          role: 'assistant',
          content: 'Checking both.',
          tool_calls: [
            { id: 'call_a', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
            { id: 'call_b', type: 'function', function: { name: 'weather', arguments: '{"city":"Rome"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_a', content: 'sunny' },
        { role: 'tool', tool_call_id: 'call_b', content: 'rain' },
        { role: 'assistant', content: 'Paris is sunny, Rome rainy.' },
      ],
    },
    {
      name: 'tool calls without text: content null; empty arguments become {}',
      items: [user('list'), call('call_1', 'list_files', ''), output('call_1', 'a.txt')],
      expected: [
        { role: 'user', content: 'list' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'list_files', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'a.txt' },
      ],
    },
    {
      name: 'an empty assistant text before calls is content null',
      items: [user('go'), assistant(''), call('call_1'), output('call_1')],
      expected: [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'shell', arguments: '{"command":"ls"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'ok' },
      ],
    },
    {
      name: 'a call without an output gets an aborted tool message; an orphan output is dropped',
      items: [user('go'), call('call_1'), output('call_unknown', 'stray'), user('never mind')],
      expected: [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'shell', arguments: '{"command":"ls"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'aborted' },
        { role: 'user', content: 'never mind' },
      ],
    },
    {
      name: 'consecutive same-role messages stay separate; a call joins the assistant message right before it',
      items: [
        user('one'),
        user('two'),
        assistant('first'),
        assistant('second'),
        call('call_1'),
        output('call_1'),
      ],
      expected: [
        { role: 'user', content: 'one' },
        { role: 'user', content: 'two' },
        { role: 'assistant', content: 'first' },
        {
          role: 'assistant',
          content: 'second',
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'shell', arguments: '{"command":"ls"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'ok' },
      ],
    },
    {
      name: 'user images become image_url parts beside the text',
      items: [
        user('what is this?', image('data:image/png;base64,AAAA', 'low'), image('https://x.test/a.png')),
      ],
      expected: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'what is this?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA', detail: 'low' } },
            { type: 'image_url', image_url: { url: 'https://x.test/a.png' } },
          ],
        },
      ],
    },
    {
      name: 'ghost snapshots and opaque items are never sent',
      items: [
        user('hi'),
        { type: 'ghost_snapshot', ghost_commit: { id: 'abc' } },
        { type: 'opaque', raw: { type: 'web_search_call' } },
        assistant('hello'),
      ],
      expected: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'hello' },
      ],
    },
  ];

  it.each(cases)('$name', ({ items, model, expected }) => {
    expect(messagesFor(items, model)).toEqual(expected);
  });
});

describe('convertToOpenAIChatRequest: what cannot be sent', () => {
  it('sends images in tool output in a user message after the tool messages, without a warning', () => {
    const { body, warnings } = convertToOpenAIChatRequest({
      items: [
        user('screenshot'),
        call('call_1', 'screenshot', '{}'),
        call('call_2', 'screenshot', '{}'),
        output('call_1', [{ type: 'input_text', text: 'captured:' }, image('data:image/png;base64,AAAA')]),
        output('call_2', 'no image'),
        user('next'),
      ],
      tools: [],
      model: 'gpt-4o',
    });
    expect(body.messages.slice(-4)).toEqual([
      { role: 'tool', tool_call_id: 'call_1', content: `captured:\n${TOOL_IMAGE_PLACEHOLDER}` },
      { role: 'tool', tool_call_id: 'call_2', content: 'no image' },
      {
        role: 'user',
        content: [
          { type: 'text', text: TOOL_IMAGES_INTRO },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
        ],
      },
      { role: 'user', content: 'next' },
    ]);
    expect(warnings).toEqual([]);
  });

  it('drops reasoning from any provider, warning once only when it had readable text', () => {
    const withSummary = convertToOpenAIChatRequest({
      items: [
        user('think'),
        reasoning('Considered options.', {
          id: 'rs_1',
          encrypted_content: 'gAAA',
          origin: origin('openai-responses', 'o3'),
        }),
        reasoning('', { content: [{ type: 'reasoning_text', text: 'Anthropic thinking' }] }),
        assistant('Answer.'),
      ],
      tools: [],
      model: 'o3',
    });
    expect(withSummary.body.messages).toEqual([
      { role: 'user', content: 'think' },
      { role: 'assistant', content: 'Answer.' },
    ]);
    expect(withSummary.warnings).toEqual([OPENAI_CHAT_WARNINGS.droppedReasoning]);

    const opaqueOnly = convertToOpenAIChatRequest({
      items: [user('think'), reasoning('', { encrypted_content: 'gAAA' }), assistant('Answer.')],
      tools: [],
      model: 'gpt-4o',
    });
    expect(opaqueOnly.warnings).toEqual([]);
  });
});

describe('convertToOpenAIChatRequest: request options', () => {
  it('streams with usage, and sends tools and max_completion_tokens only when given', () => {
    const bare = convertToOpenAIChatRequest({ items: [user('hi')], tools: [], model: 'gpt-4o' }).body;
    expect(bare).toEqual({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });

    const full = convertToOpenAIChatRequest({
      items: [user('hi')],
      tools: [
        {
          name: 'shell',
          description: 'Run a command',
          parameters: { type: 'object', properties: { command: { type: 'string' } } },
        },
      ],
      model: 'gpt-4o',
      maxOutputTokens: 512,
    }).body;
    expect(full.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'shell',
          description: 'Run a command',
          parameters: { type: 'object', properties: { command: { type: 'string' } } },
        },
      },
    ]);
    expect(full.max_completion_tokens).toBe(512);
  });

  it.each([
    ['o1', true],
    ['o3-mini', true],
    ['o4-mini-2025-04-16', true],
    ['gpt-5', true],
    ['gpt-5-nano', true],
    ['openai/o3-mini', true],
    ['gpt-4o', false],
    ['gpt-4.1-mini', false],
    ['llama3.2', false],
    ['qwen2.5-coder:7b', false],
  ])('usesDeveloperRole(%s) is %s', (model, expected) => {
    expect(usesDeveloperRole(model)).toBe(expected);
  });
});
