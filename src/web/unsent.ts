/**
 * A message the server did not take, kept in this tab (sessionStorage) with why: the box shows it again
 * and the notice stays after a reload, until it is sent. Kept per conversation, `new` for a first message
 * (its conversation is deleted: a failed first message leaves no empty conversation behind).
 */
import type { Selection } from './api.js';
import type { FailureView } from './failure.js';

export interface Unsent {
  text: string;
  failure: FailureView;
  /** A first message's provider, API and model, chosen again when it comes back. */
  selection?: Selection;
}

/** Where an unsent first message is kept. */
export const NEW_CONVERSATION = 'new';

const key = (where: string) => `cody.unsent.${where}`;

export function keepUnsent(where: string, unsent: Unsent): void {
  try {
    sessionStorage.setItem(key(where), JSON.stringify(unsent));
  } catch {
    // No storage (private mode): the box and the notice keep it until a reload.
  }
}

export function readUnsent(where: string): Unsent | undefined {
  try {
    const stored = JSON.parse(sessionStorage.getItem(key(where)) ?? 'null') as Partial<Unsent> | null;
    const failure = stored?.failure;
    if (typeof stored?.text !== 'string' || typeof failure?.title !== 'string') return undefined;
    const { provider, api, model } = stored.selection ?? {};
    return {
      text: stored.text,
      failure: { title: failure.title, detail: String(failure.detail ?? ''), retry: failure.retry === true },
      selection: {
        ...(typeof provider === 'string' ? { provider } : {}),
        ...(typeof api === 'string' ? { api } : {}),
        ...(typeof model === 'string' ? { model } : {}),
      },
    };
  } catch {
    return undefined;
  }
}

export function forgetUnsent(where: string): void {
  try {
    sessionStorage.removeItem(key(where));
  } catch {
    // nothing to forget
  }
}
