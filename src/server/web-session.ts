/**
 * Signing a browser in without the API token ever being in a URL, a log or the page's script: `cody serve`
 * prints `http://127.0.0.1:PORT/#code=…` (a fragment is never sent in a request), the page trades the
 * code once for a session cookie (`POST /auth/session`) and the session's secret (in the answer's body).
 * The cookie alone authorises nothing: cookies are not kept apart by port, so every other service on this
 * machine's loopback is sent it. Each request must also carry the secret (`X-Cody-Session`), which only
 * the page's own origin can read (it keeps it in sessionStorage). A code works once and for
 * `CODE_TTL_MS`; sessions live in this process only (a restart signs out).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long a printed sign-in code can be used. */
export const CODE_TTL_MS = 10 * 60_000;
/** How long a session lasts without a request. */
export const SESSION_IDLE_MS = 7 * 24 * 60 * 60_000;
const SECRET_BYTES = 32;
/** The header that carries a session's secret. */
export const SESSION_SECRET_HEADER = 'x-cody-session';

/** A session a sign-in opened: the cookie's value and the secret the page sends with every request. */
export interface OpenedSession {
  id: string;
  secret: string;
}

/** What a request's cookie and secret header amount to. */
export type SessionCheck =
  /** No cookie of this server, or one naming no live session. */
  | 'none'
  /** A live session's cookie without any secret. */
  | 'no-secret'
  /** A live session's cookie with a secret that is not that session's. */
  | 'wrong-secret'
  | 'ok';

interface SessionRecord {
  lastUsed: number;
  /** SHA-256 of the secret. */
  secret: Buffer;
}

export class WebSessions {
  /** Digest of each unused code → when it expires. */
  private readonly codes = new Map<string, number>();
  /** Digest of each session id → when it was last used, and its secret's digest. */
  private readonly sessions = new Map<string, SessionRecord>();
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

  /** A new session if `code` is a code not yet used and not expired; the code is used up either way. */
  redeem(code: string): OpenedSession | undefined {
    const key = digest(code);
    const expires = this.codes.get(key);
    this.codes.delete(key);
    if (expires === undefined || expires < this.now()) return undefined;
    return this.open();
  }

  /** A new session (for a browser that presented the API token itself). */
  open(): OpenedSession {
    const id = randomBytes(SECRET_BYTES).toString('base64url');
    const secret = randomBytes(SECRET_BYTES).toString('base64url');
    this.sessions.set(digest(id), { lastUsed: this.now(), secret: secretDigest(secret) });
    return { id, secret };
  }

  /**
   * Whether the request's `Cookie` header names a live session of this server, and whether `secret` (the
   * `X-Cody-Session` header) is that session's, compared in constant time. Only 'ok' counts as a use.
   */
  check(cookieHeader: string | undefined, secret: string | undefined): SessionCheck {
    const record = this.live(cookieHeader)?.[1];
    if (record === undefined) return 'none';
    if (secret === undefined || secret === '') return 'no-secret';
    if (!timingSafeEqual(secretDigest(secret), record.secret)) return 'wrong-secret';
    record.lastUsed = this.now();
    return 'ok';
  }

  /** Ends the session the cookie names. */
  close(cookieHeader: string | undefined): void {
    const key = this.live(cookieHeader)?.[0];
    if (key !== undefined) this.sessions.delete(key);
  }

  /** The live session the cookie names, with its key (an idle-expired one is dropped). */
  private live(cookieHeader: string | undefined): [string, SessionRecord] | undefined {
    const id = cookieValue(cookieHeader, this.cookieName);
    if (id === undefined) return undefined;
    const key = digest(id);
    const record = this.sessions.get(key);
    if (record === undefined) return undefined;
    if (record.lastUsed + SESSION_IDLE_MS < this.now()) {
      this.sessions.delete(key);
      return undefined;
    }
    return [key, record];
  }

  /**
   * The `Set-Cookie` value for a session: unreadable by script, never sent by another site's request. A
   * service on another port of this host is the same site, and is sent it: hence the secret.
   */
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

function secretDigest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** Constant-time comparison of two strings (the API token a browser pasted). */
export function sameSecret(a: string, b: string): boolean {
  const left = createHash('sha256').update(a).digest();
  const right = createHash('sha256').update(b).digest();
  return timingSafeEqual(left, right);
}
