/** The schema check the serve harness runs on every answer and event can fail, and fails for the right things. */
import { describe, expect, it } from 'vitest';
import { validateAnswer, validateEvent } from './openapi-validator.js';

const ID = '0190c000-0000-7000-8000-000000000001';
const summary = {
  id: ID,
  provider: 'openai',
  api: 'openai-chat',
  model: 'gpt-4o-mini',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  compactionCount: 0,
};
const json = (value: unknown): string => JSON.stringify(value);
const none = new Headers();

describe('openapi validator', () => {
  it('accepts a declared answer and refuses an extra field, a missing one, or an undeclared status', () => {
    expect(() => validateAnswer('GET', `/conversations/${ID}`, 200, none, json(summary))).not.toThrow();
    expect(() =>
      validateAnswer(
        'GET',
        `/conversations/${ID}`,
        200,
        none,
        json({ ...summary, filePath: '/home/x.jsonl' }),
      ),
    ).toThrow(/additional properties/);
    const { compactionCount: _count, ...short } = summary;
    expect(() =>
      validateAnswer('GET', '/conversations', 200, none, json({ conversations: [short] })),
    ).toThrow(/compactionCount/);
    expect(() => validateAnswer('GET', `/conversations/${ID}`, 418, none, json({}))).toThrow(/not declared/);
    expect(() =>
      validateAnswer(
        'GET',
        `/conversations/${ID}/state`,
        200,
        none,
        json({ conversationId: ID, state: 'Busy' }),
      ),
    ).toThrow(/does not match/);
  });

  it('checks a 405 names exactly the methods of the path in Allow', () => {
    const error = json({ error: { code: 'method-not-allowed', message: 'no' } });
    expect(() =>
      validateAnswer('PATCH', '/conversations', 405, new Headers({ allow: 'GET, POST' }), error),
    ).not.toThrow();
    expect(() => validateAnswer('PATCH', '/conversations', 405, none, error)).toThrow(/Allow/);
  });

  it('checks each event against its type, and that its event: line names it', () => {
    const delta = json({ type: 'text-delta', text: 'hi', conversationId: ID });
    expect(() => validateEvent(`/conversations/${ID}/events`, 'text-delta', delta)).not.toThrow();
    expect(() => validateEvent(`/conversations/${ID}/events`, undefined, delta)).toThrow(/event: undefined/);
    expect(() =>
      validateEvent(
        `/conversations/${ID}/events`,
        'text-delta',
        json({ type: 'text-delta', conversationId: ID }),
      ),
    ).toThrow(/does not match/);
    expect(() =>
      validateEvent(`/conversations/${ID}/events`, 'made-up', json({ type: 'made-up', conversationId: ID })),
    ).toThrow(/does not match/);
    const state = json({ type: 'conversation-state', conversationId: ID, state: 'busy', turnId: 't' });
    expect(() => validateEvent('/events', 'conversation-state', state)).not.toThrow();
    expect(() => validateEvent(`/conversations/${ID}/events`, 'conversation-state', state)).toThrow();
  });
});
