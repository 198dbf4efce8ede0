/**
 * The session's secret: the sign-in answer's body holds it, the page keeps it in this tab's
 * sessionStorage (readable by this origin only: scheme, host and port) and sends it on every request in
 * `X-Cody-Session`. The session cookie alone authorises nothing, since every service on this host is
 * sent it. A reload keeps it; a new tab of this origin asks the tabs already signed in for it over a
 * BroadcastChannel (bound to this origin too), and shows the sign-in form when none answers.
 */

const KEY = 'cody.session';
const CHANNEL = 'cody-session';
/** How long a new tab waits for a signed-in tab to answer. */
const ASK_MS = 300;

interface Message {
  kind: 'ask' | 'answer' | 'signed-out';
  secret?: string;
}

/** The secret when storage is unavailable. */
let memory: string | undefined;

/** This tab's secret, if it has one. */
export function sessionSecret(): string | undefined {
  try {
    return sessionStorage.getItem(KEY) ?? memory;
  } catch {
    return memory;
  }
}

export function keepSessionSecret(secret: string): void {
  try {
    sessionStorage.setItem(KEY, secret);
  } catch {
    // No storage (private mode, blocked): the page works until it is reloaded.
  }
  memory = secret;
}

/** Forgets the secret here and, when `everywhere`, in the other tabs of this origin (a sign-out). */
export function forgetSessionSecret(everywhere = false): void {
  memory = undefined;
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // nothing kept
  }
  if (everywhere) post({ kind: 'signed-out' });
}

/** This tab's secret, else one a signed-in tab of this origin hands over (kept then), else undefined. */
export async function findSessionSecret(): Promise<string | undefined> {
  const kept = sessionSecret();
  if (kept !== undefined) return kept;
  if (typeof BroadcastChannel === 'undefined') return undefined;
  const channel = new BroadcastChannel(CHANNEL);
  const answer = await new Promise<string | undefined>((resolve) => {
    const timer = setTimeout(() => resolve(undefined), ASK_MS);
    channel.onmessage = (event: MessageEvent<Message>) => {
      if (event.data.kind !== 'answer' || typeof event.data.secret !== 'string') return;
      clearTimeout(timer);
      resolve(event.data.secret);
    };
    channel.postMessage({ kind: 'ask' } satisfies Message);
  });
  channel.close();
  if (answer !== undefined) keepSessionSecret(answer);
  return answer;
}

/** Answers other tabs of this origin that ask for the secret; `onSignedOut` when one signs out. */
export function shareSessionSecret(onSignedOut: () => void): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => undefined;
  const channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = (event: MessageEvent<Message>) => {
    const secret = sessionSecret();
    if (event.data.kind === 'ask' && secret !== undefined) {
      channel.postMessage({ kind: 'answer', secret } satisfies Message);
    } else if (event.data.kind === 'signed-out') {
      forgetSessionSecret();
      onSignedOut();
    }
  };
  return () => channel.close();
}

function post(message: Message): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage(message);
  channel.close();
}
