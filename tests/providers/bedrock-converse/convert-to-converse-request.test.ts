/** Canonical items → Converse request: the rules Converse enforces, and what cannot be sent. */
import { describe, expect, it } from 'vitest';
import {
  convertToConverseRequest,
  EMPTY_TOOL_OUTPUT,
  THINKING_PAUSED_WARNING,
} from '../../../src/providers/bedrock-converse/convert-to-converse-request.js';
import { toConverseToolId } from '../../../src/providers/bedrock-converse/convert-to-converse-content.js';
import { converseReasoning } from '../../../src/providers/bedrock-converse/converse-reasoning.js';
import { bedrockModelFamily } from '../../../src/providers/bedrock-converse/definition.js';
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

const CLAUDE = 'us.anthropic.claude-sonnet-4-20250514-v1:0';
const SHELL = { name: 'shell', description: 'Run', parameters: { type: 'object' } };

describe('convertToConverseRequest', () => {
  it('puts leading instructions in system and a late one, tagged, in the user turn where it was given', () => {
    const { body } = convertToConverseRequest({
      items: [
        system('Be brief.'),
        developer('Use metric.'),
        user('hi'),
        assistant('hello'),
        developer('Now French.'),
      ],
      tools: [],
      model: CLAUDE,
    });
    expect(body.system).toEqual([{ text: 'Be brief.\n\nUse metric.' }]);
    expect(body.messages?.at(-1)).toEqual({
      role: 'user',
      content: [{ text: '<developer_instructions>\nNow French.\n</developer_instructions>' }],
    });
  });

  it('starts with a placeholder user turn when the history starts with the assistant, and merges same-role items', () => {
    const { body, warnings } = convertToConverseRequest({
      items: [assistant('earlier'), user('a'), user('b')],
      tools: [],
      model: CLAUDE,
    });
    expect(body.messages).toEqual([
      { role: 'user', content: [{ text: '(continuing the conversation)' }] },
      { role: 'assistant', content: [{ text: 'earlier' }] },
      { role: 'user', content: [{ text: 'a' }, { text: 'b' }] },
    ]);
    expect(warnings).toHaveLength(1);
  });

  it('gives an empty tool result a text, and a call with broken arguments {} with a warning', () => {
    const { body, warnings } = convertToConverseRequest({
      items: [user('go'), call('c1', 'shell', '{not json'), output('c1', '')],
      tools: [SHELL],
      model: CLAUDE,
    });
    expect(body.messages?.[1]?.content).toEqual([{ toolUse: { toolUseId: 'c1', name: 'shell', input: {} } }]);
    expect(body.messages?.[2]?.content).toEqual([
      { toolResult: { toolUseId: 'c1', content: [{ text: EMPTY_TOOL_OUTPUT }] } },
    ]);
    expect(warnings.join('\n')).toMatch(/not a JSON object/);
  });

  it('adapts call ids Converse refuses, the same way for the call and its result', () => {
    const id = 'functions.shell:0/äbc';
    const { body } = convertToConverseRequest({
      items: [user('go'), call(id), output(id, 'ok')],
      tools: [SHELL],
      model: CLAUDE,
    });
    const adapted = toConverseToolId(id);
    expect(adapted).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(toConverseToolId('functions.shell:0/äbd')).not.toBe(adapted);
    expect(body.messages?.[1]?.content?.[0]?.toolUse?.toolUseId).toBe(adapted);
    expect(body.messages?.[2]?.content?.[0]?.toolResult?.toolUseId).toBe(adapted);
    expect(toConverseToolId('tooluse_AbC-1_x')).toBe('tooluse_AbC-1_x');
  });

  it('leaves out images it cannot send: an https URL, and any image from the assistant', () => {
    const { body, warnings } = convertToConverseRequest({
      items: [user('look', image('https://example.com/a.png'))],
      tools: [],
      model: CLAUDE,
    });
    expect(body.messages?.[0]?.content).toEqual([{ text: 'look' }]);
    expect(warnings.join('\n')).toMatch(/base64 data: URL/);
  });

  it('drops reasoning from another API, another model family, or without a signature', () => {
    const { body, warnings } = convertToConverseRequest({
      items: [
        user('q'),
        reasoning('', {
          content: [{ type: 'reasoning_text', text: 'x' }],
          origin: origin('anthropic-messages', 'claude-sonnet-4-6'),
          provider_data: { signature: 's' },
        }),
        reasoning('', {
          content: [{ type: 'reasoning_text', text: 'y' }],
          origin: origin('bedrock-converse', 'us.amazon.nova-pro-v1:0'),
          provider_data: { signature: 's' },
        }),
        reasoning('', {
          content: [{ type: 'reasoning_text', text: 'z' }],
          origin: origin('bedrock-converse', CLAUDE),
        }),
        assistant('a'),
      ],
      tools: [],
      model: CLAUDE,
    });
    expect(body.messages?.[1]).toEqual({ role: 'assistant', content: [{ text: 'a' }] });
    expect(warnings.join('\n')).toMatch(/3 reasoning item/);
  });

  it('replays Claude reasoning to another Claude model, through any region prefix, and redacted reasoning as bytes', () => {
    const { body } = convertToConverseRequest({
      items: [
        user('q'),
        reasoning('', {
          origin: origin('bedrock-converse', 'eu.anthropic.claude-opus-4-1-20250805-v1:0'),
          provider_data: { redacted_data: Buffer.from('secret').toString('base64') },
        }),
        assistant('a'),
      ],
      tools: [],
      model: CLAUDE,
    });
    const [block] = body.messages?.[1]?.content ?? [];
    expect(Buffer.from(block?.reasoningContent?.redactedContent ?? []).toString()).toBe('secret');
    expect(bedrockModelFamily('us.amazon.nova-pro-v1:0')).toBe(bedrockModelFamily('amazon.nova-pro-v1:0'));
  });

  it('leaves thinking off (with a warning) for a Claude tool loop begun without it', () => {
    const { body, warnings } = convertToConverseRequest({
      items: [user('go'), call('c1'), output('c1', 'ok')],
      tools: [SHELL],
      model: CLAUDE,
      reasoningEffort: 'high',
    });
    expect(body.additionalModelRequestFields).toBeUndefined();
    expect(warnings).toContain(THINKING_PAUSED_WARNING);
  });
});

describe('converseReasoning', () => {
  it('keeps Claude’s budget below the cap, and sends nothing when the cap leaves no room', () => {
    expect(converseReasoning(CLAUDE, 'medium', 4_096)?.fields.thinking).toEqual({
      type: 'enabled',
      budget_tokens: 3_072,
    });
    expect(converseReasoning(CLAUDE, 'low', 1_500)).toBeUndefined();
    expect(converseReasoning(CLAUDE, 'off', undefined)).toBeUndefined();
  });

  it('maps the level to Nova 2’s reasoningConfig, and sends nothing to a model whose switch is unknown', () => {
    expect(converseReasoning('us.amazon.nova-2-lite-v1:0', 'minimal', undefined)).toEqual({
      fields: { reasoningConfig: { type: 'enabled', maxReasoningEffort: 'low' } },
    });
    expect(converseReasoning('us.meta.llama3-3-70b-instruct-v1:0', 'high', undefined)).toBeUndefined();
    expect(
      converseReasoning('anthropic.claude-3-7-sonnet-20250219-v1:0', 'high', undefined)?.fields
        .anthropic_beta,
    ).toBeUndefined();
  });
});
