/**
 * Why a turn failed, in words (issue 34): the reason a transcript records maps to what happened and what
 * to do, the same after a reload; a message the server refused says why (no key: how to add one); Retry
 * is offered on the last turn only when it failed in a way retrying may fix.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/web/api-error.js';
import { recordedFailure, retryPoint, sendFailure } from '../../../src/web/failure.js';
import { failedTurnKept } from '../../../src/web/turn-model.js';
import type { TranscriptEntry } from '../../../src/web/types.js';

function user(text: string): TranscriptEntry {
  return { kind: 'item', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] } };
}

describe('failures in words', () => {
  it('names each recorded reason, and offers Retry where it may help', () => {
    expect(recordedFailure('auth')).toMatchObject({ retry: true });
    expect(recordedFailure('auth').detail).toContain('cody auth login');
    expect(recordedFailure('rate-limit').title).toMatch(/rate limited/i);
    expect(recordedFailure('server').title).toMatch(/down/);
    expect(recordedFailure('network').detail).toContain('--base-url');
    expect(recordedFailure('interrupted')).toMatchObject({ title: 'Stopped', retry: false });
    expect(recordedFailure('context-overflow').retry).toBe(false);
    expect(recordedFailure('something-new')).toMatchObject({ retry: true });
    expect(recordedFailure('something-new').detail).toContain('something-new');
  });

  it('a refused message says why: no key names how to add one; a running turn; the server unreachable', () => {
    const noKey = sendFailure(new ApiError(502, 'provider-auth', 'Missing API key for openrouter.'));
    expect(noKey.title).toMatch(/No API key/);
    expect(noKey.detail).toContain('Missing API key for openrouter.');
    expect(noKey.detail).toContain('cody auth login');
    expect(sendFailure(new ApiError(409, 'turn-running', 'busy')).title).toMatch(/already running/);
    expect(sendFailure(new ApiError(503, 'shutting-down', 'bye')).retry).toBe(false);
    expect(sendFailure(new TypeError('Failed to fetch')).title).toMatch(/could not be reached/);
  });

  it('Retry goes on the last turn when it failed retryably, with its message', () => {
    const context: TranscriptEntry = { kind: 'turn-context', provider: 'openai', api: 'chat', model: 'm' };
    const failed: TranscriptEntry[] = [user('one'), { kind: 'aborted', reason: 'server' }, context];
    expect(retryPoint(failed)).toEqual({ index: 1, text: 'one' });
    expect(retryPoint([user('one'), { kind: 'aborted', reason: 'interrupted' }])).toBeUndefined();
    expect(retryPoint([...failed, user('two')])).toBeUndefined();
    expect(retryPoint([{ kind: 'aborted', reason: 'server' }])).toBeUndefined();
  });

  it('a failed turn keeps only its error once the transcript is read again', () => {
    const kept = failedTurnKept({
      userText: 'hi',
      ended: 'failed',
      blocks: [
        { kind: 'text', text: 'partial' },
        { kind: 'notice', level: 'warning', text: 'w' },
        { kind: 'notice', level: 'error', text: 'HTTP 503' },
      ],
    });
    expect(kept).toEqual({
      ended: 'failed',
      userText: undefined,
      blocks: [{ kind: 'notice', level: 'error', text: 'HTTP 503' }],
    });
    expect(failedTurnKept({ ended: 'completed', blocks: [] })).toBeUndefined();
  });
});
