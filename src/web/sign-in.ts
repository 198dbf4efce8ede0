/**
 * Signing in from the address bar: `cody serve` prints `http://127.0.0.1:PORT/#code=…`. The code is taken
 * out of the address bar and the history at once (history.replaceState), then traded once for the
 * session cookie (`POST /auth/session`).
 */
import { api } from './api.js';
import type { SessionInfo } from './types.js';

export async function signInFromAddress(): Promise<SessionInfo | undefined> {
  const code = /(?:^#|&)code=([^&]+)/.exec(location.hash)?.[1];
  if (code === undefined) return undefined;
  history.replaceState(history.state, '', `${location.pathname}${location.search}`);
  return api.signIn(decodeURIComponent(code));
}
