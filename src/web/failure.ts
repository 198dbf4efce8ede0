/**
 * Why a turn did not happen, in words a person acts on: a turn the transcript records as aborted (its
 * `reason`, the provider failure's kind, so the words are the same after a reload), and a message the
 * server would not take (the POST's answer: no key, a turn already running, the server stopping).
 * `retry`: sending the same message again may work (after the fix the words name).
 */
import { ApiError } from './api-error.js';
import { userText } from './transcript-text.js';
import type { TranscriptEntry } from './types.js';

export interface FailureView {
  title: string;
  detail: string;
  retry: boolean;
}

const ADD_KEY =
  'Add a key in a terminal with `cody auth login <provider>` (read at the next turn, no restart), or set the provider’s key variable and restart cody serve; then send again.';

const BY_REASON: Record<string, FailureView> = {
  interrupted: {
    title: 'Stopped',
    detail: 'The turn was stopped before it finished (Stop, Esc, or the server shutting down).',
    retry: false,
  },
  auth: { title: 'The provider refused the key, or there is none', detail: ADD_KEY, retry: true },
  'rate-limit': {
    title: 'Rate limited by the provider',
    detail: 'It still said “too many requests” after Cody’s retries. Wait a little, then retry.',
    retry: true,
  },
  overloaded: {
    title: 'The provider is overloaded',
    detail: 'It still said so after Cody’s retries. Retry in a moment.',
    retry: true,
  },
  server: {
    title: 'The provider is down',
    detail: 'Its server answered with an error after Cody’s retries. Retry in a moment.',
    retry: true,
  },
  network: {
    title: 'The provider could not be reached',
    detail:
      'Check the network and the provider’s address (`cody set-provider <provider> --base-url …`, read at the next turn), then retry.',
    retry: true,
  },
  'invalid-stream': {
    title: 'The provider’s reply broke off',
    detail: 'Its stream ended before the reply did. Retry.',
    retry: true,
  },
  'not-found': {
    title: 'The provider does not know this model',
    detail: 'Choose another model (in the header), then retry.',
    retry: true,
  },
  'context-overflow': {
    title: 'The conversation no longer fits the model’s context window',
    detail: 'Compact it, fork from an earlier message, or start a new conversation.',
    retry: false,
  },
  'compaction-failed': {
    title: 'Compaction failed, so the turn stopped',
    detail: 'The history is kept. Retry, or start a new conversation.',
    retry: true,
  },
  'bad-request': {
    title: 'The provider refused the request',
    detail: 'It called the request invalid; retrying the same one will not help.',
    retry: false,
  },
};

/** A recorded aborted turn, by its reason (an unknown reason is still named). */
export function recordedFailure(reason: string): FailureView {
  return (
    BY_REASON[reason] ?? {
      title: 'The turn failed',
      detail: `Recorded reason: ${reason}.`,
      retry: true,
    }
  );
}

/** A message the server did not take (the POST failed): the message stays in the box to send again. */
export function sendFailure(error: unknown): FailureView {
  const said = error instanceof Error ? error.message : String(error);
  if (!(error instanceof ApiError)) {
    return { title: 'Cody’s server could not be reached', detail: said, retry: true };
  }
  switch (error.code) {
    case 'provider-auth':
      return {
        title: 'No API key for this provider (or it was refused)',
        detail: `${said} ${ADD_KEY}`,
        retry: true,
      };
    case 'provider-error':
      return { title: 'The provider failed', detail: said, retry: true };
    case 'turn-running':
      return { title: 'A turn is already running', detail: said, retry: true };
    case 'shutting-down':
      return { title: 'The server is shutting down', detail: said, retry: false };
    default:
      return { title: 'The message was not sent', detail: said, retry: error.status >= 500 };
  }
}

/** One line, for a live notice and for what is kept across a reload. */
export function failureText(view: FailureView): string {
  return `${view.title}. ${view.detail}`;
}

/** The conversation's last turn failed in a way retrying may fix: where that is recorded, and its message. */
export function retryPoint(entries: readonly TranscriptEntry[]): { index: number; text: string } | undefined {
  let last = entries.length - 1;
  while (last >= 0 && entries[last]?.kind === 'turn-context') last -= 1;
  const ended = entries[last];
  if (ended?.kind !== 'aborted' || !recordedFailure(ended.reason).retry) return undefined;
  for (let index = last - 1; index >= 0; index -= 1) {
    const entry = entries[index];
    const text = entry ? userText(entry) : undefined;
    if (text !== undefined) return { index: last, text };
  }
  return undefined;
}
