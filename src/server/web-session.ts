/**
 * Signing a browser in without the API token ever being in a URL, a log or the page's script: `cody serve`
 * prints `http://127.0.0.1:PORT/#code=…` (a fragment is never sent in a request), the page trades the
 * code once for a session cookie (`POST /auth/session`), and from then on the cookie authenticates it.
 * A code works once and for `CODE_TTL_MS`; sessions live in this process only (a restart signs out).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long a printed sign-in code can be used. */
export const CODE_TTL_MS = 10 * 60_000;
/** How long a session lasts without a request. */
export const SESSION_IDLE_MS = 7 * 24 * 60 * 60_000;
const SECRET_BYTES = 32;

export class WebSessions {
  /** Digest of each unused code → when it expires. */
  private readonly codes = new Map<string, number>();
  /** Digest of each session id → when it was last used. */
  private readonly sessions = new Map<string, number>();
  readonly cookieName: string;
  private readonly now: () => number;

  /** `port`: cookies are not kept apart by port, so each server's cookie has its own name. */
  constructor(port: number, now: () => number = Date.now) {
    this.cookieName = `cody_session_${port}`;
    this.now = now;
  }

  /** A new one-time code for a sign-in URL. */
  newCode(): string {
    const code = randomBytes(SECRET_BYTES).toString('base64url');
    this.codes.set(digest(code), this.now() + CODE_TTL_MS);
    return code;
  }

  /** A new session id if `code` is a code not yet used and not expired; the code is used up either way. */
  redeem(code: string): string | undefined {
    const key = digest(code);
    const expires = this.codes.get(key);
    this.codes.delete(key);
    if (expires === undefined || expires < this.now()) return undefined;
    return this.open();
  }

  /** A new session (for a browser that presented the API token itself). */
  open(): string {
    const id = randomBytes(SECRET_BYTES).toString('base64url');
    this.sessions.set(digest(id), this.now());
    return id;
  }

  /** Whether the request's `Cookie` header carries a live session of this server. */
  isSession(cookieHeader: string | undefined): boolean {
    const id = cookieValue(cookieHeader, this.cookieName);
    if (id === undefined) return false;
    const key = digest(id);
    const lastUsed = this.sessions.get(key);
    if (lastUsed === undefined) return false;
    if (lastUsed + SESSION_IDLE_MS < this.now()) {
      this.sessions.delete(key);
      return false;
    }
    this.sessions.set(key, this.now());
    return true;
  }

  /** Ends the session the cookie names. */
  close(cookieHeader: string | undefined): void {
    const id = cookieValue(cookieHeader, this.cookieName);
    if (id !== undefined) this.sessions.delete(digest(id));
  }

  /** The `Set-Cookie` value for a session: unreadable by script, never sent by another site's request. */
  cookie(sessionId: string): string {
    return `${this.cookieName}=${sessionId}; HttpOnly; SameSite=Strict; Path=/`;
  }

  /** The `Set-Cookie` value that removes it. */
  clearedCookie(): string {
    return `${this.cookieName}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0`;
  }
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return undefined;
}

/** Secrets are kept and looked up as digests: a map lookup then leaks nothing about a stored value. */
function digest(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

/** Constant-time comparison of two strings (the API token a browser pasted). */
export function sameSecret(a: string, b: string): boolean {
  const left = createHash('sha256').update(a).digest();
  const right = createHash('sha256').update(b).digest();
  return timingSafeEqual(left, right);
}
