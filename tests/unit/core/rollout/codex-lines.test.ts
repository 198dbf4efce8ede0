/** The pieces that make a Cody rollout line one Codex parses: permissions, user_message events, totals. */
import { describe, expect, it } from 'vitest';
import { addTokenUsage, tokenCountEvent } from '../../../../src/core/store/conversation-stats.js';
import {
  codexModelProvider,
  codexPermissions,
  codyEventOf,
  userMessageEvent,
} from '../../../../src/core/rollout/codex-lines.js';
import { SUMMARY_PREFIX } from '../../../../src/core/rollout/summary-prefix.js';
import { codexLineProblems } from '../../../e2e/codex-rollout-requirements.js';

const user = (text: string, image?: string) => ({
  type: 'message' as const,
  role: 'user' as const,
  content: [
    { type: 'input_text' as const, text },
    ...(image ? [{ type: 'input_image' as const, image_url: image }] : []),
  ],
});

describe('Codex permissions in turn_context', () => {
  it.each([
    ['read-only', 'never', { type: 'read-only' }],
    ['ask', 'untrusted', { type: 'danger-full-access' }],
    ['auto-edit', 'untrusted', { type: 'danger-full-access' }],
    ['full-auto', 'on-request', { type: 'danger-full-access' }],
    [undefined, 'untrusted', { type: 'danger-full-access' }],
  ] as const)('%s → %s', (policy, approval, sandbox) => {
    const permissions = codexPermissions(policy);
    expect(permissions).toMatchObject({ approval_policy: approval, sandbox_policy: sandbox });
    const line = {
      timestamp: 't',
      type: 'turn_context',
      payload: { cwd: '/w', model: 'gpt-5', ...permissions },
    };
    expect(codexLineProblems(line)).toEqual([]);
  });

  it('writes the sandbox commands really run in, in Codex’s full shape', () => {
    expect(
      codexPermissions('full-auto', {
        type: 'workspace-write',
        writable_roots: ['/w'],
        network_access: false,
      }),
    ).toEqual({
      approval_policy: 'on-request',
      sandbox_policy: {
        type: 'workspace-write',
        writable_roots: ['/w'],
        network_access: false,
        exclude_tmpdir_env_var: false,
        exclude_slash_tmp: false,
      },
      cody_approval_policy: 'full-auto',
    });
  });
});

describe('user_message events', () => {
  it('announce what the person typed, with images, and nothing Codex does not announce', () => {
    expect(userMessageEvent(user('hello', 'data:image/png;base64,AA=='))).toEqual({
      type: 'user_message',
      message: 'hello',
      images: ['data:image/png;base64,AA=='],
      local_images: [],
      text_elements: [],
    });
    expect(userMessageEvent(user('<environment_context>x</environment_context>'))).toBeUndefined();
    expect(userMessageEvent(user(`${SUMMARY_PREFIX}\nearlier`))).toBeUndefined();
    expect(userMessageEvent({ ...user('hi'), role: 'assistant' })).toBeUndefined();
  });
});

describe('Cody events in either shape', () => {
  it('reads cody_* items and the old event_msg names alike, and nothing else', () => {
    expect(codyEventOf('response_item', { type: 'cody_turn_complete', message_count: 2 })).toEqual({
      kind: 'turn_complete',
      payload: { type: 'turn_complete', message_count: 2 },
    });
    expect(codyEventOf('event_msg', { type: 'context_compacted' })?.kind).toBe('context_compacted');
    expect(codyEventOf('response_item', { type: 'cody_reasoning' })).toBeUndefined();
    expect(codyEventOf('event_msg', { type: 'token_count' })).toBeUndefined();
  });
});

describe('token totals and model_provider', () => {
  it('keeps a running total beside the last usage', () => {
    const first = { inputTokens: 100, outputTokens: 10, reasoningTokens: 4 };
    const second = { inputTokens: 120, cachedInputTokens: 100, outputTokens: 5 };
    const total = addTokenUsage(addTokenUsage(undefined, first), second);
    expect(total).toEqual({
      inputTokens: 220,
      cachedInputTokens: 100,
      outputTokens: 15,
      reasoningTokens: 4,
      totalTokens: 235,
    });
    const event = tokenCountEvent(second, 400_000, total);
    expect(event.info).toMatchObject({
      total_token_usage: { input_tokens: 220, total_tokens: 235 },
      last_token_usage: { input_tokens: 120, cached_input_tokens: 100, total_tokens: 125 },
    });
    expect(codexLineProblems({ timestamp: 't', type: 'event_msg', payload: event })).toEqual([]);
  });

  it('names openai only for OpenAI conversations', () => {
    expect(codexModelProvider('openai')).toBe('openai');
    expect(codexModelProvider('anthropic')).toBeUndefined();
    expect(codexModelProvider('google')).toBeUndefined();
  });
});
