/**
 * The torture suite's own checks. The bounded run of each part inside `npm test` is one file per part
 * (torture-*.test.ts), so the parts run side by side; the full run is `npm run torture`.
 */
import { describe, expect, it } from 'vitest';
import { inconsistentRequests } from './kills.js';
import { MUTATIONS, mutate } from './mutants.js';
import { random } from './run-cody.js';

describe('the torture checks themselves', () => {
  it('every mutation changes the rollout', () => {
    const original = Buffer.from(
      `${JSON.stringify({ type: 'session_meta', payload: { id: 'x' } })}\n${JSON.stringify({ type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hello there' }] } })}\n`,
    );
    for (const mutation of MUTATIONS) {
      expect(mutate(original, mutation, random(3), 1_000).equals(original), mutation).toBe(false);
    }
  });

  it('counts a request with two unanswered messages in a row as inconsistent', () => {
    const request = (messages: Array<[string, string]>) => ({
      api: 'openai-chat' as const,
      method: 'POST',
      url: '/v1/chat/completions',
      headers: {},
      body: { messages: messages.map(([role, content]) => ({ role, content })) },
      model: 'gpt-4o',
      stream: true,
      answeredWith: { type: 'reply' as const, text: '' },
    });
    expect(
      inconsistentRequests([
        request([
          ['system', 'You are Cody.'],
          ['user', 'first'],
          ['assistant', 'reply'],
          ['user', 'second'],
        ]),
        request([
          ['user', 'kept'],
          ['user', '[Cody context summary] …'],
          ['user', 'new'],
        ]),
      ]),
    ).toBe(0);
    expect(
      inconsistentRequests([
        request([
          ['user', 'dangling'],
          ['user', 'next'],
        ]),
      ]),
    ).toBe(1);
  });
});
