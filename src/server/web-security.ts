/**
 * What keeps a browser from being turned against `cody serve`: headers every answer carries (a strict
 * Content-Security-Policy: the page's own scripts and styles only, no inline script, no framing), the
 * `Host` check against DNS rebinding, and the `Origin` check against other pages on the same machine.
 */
import { isLoopbackHost } from './serve-options.js';

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; '),
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

/**
 * Whether a `Host` header names this server: a loopback name (127.x, localhost, [::1]) with the port it
 * listens on. A page on evil.example whose name was re-pointed at 127.0.0.1 sends `Host: evil.example`.
 */
export function hostCheck(port: number): (host: string | undefined) => boolean {
  return (host) => {
    if (host === undefined) return false;
    const match = /^(\[[^\]]*\]|[^:]+):(\d+)$/.exec(host.trim());
    if (!match?.[1] || Number(match[2]) !== port) return false;
    return isLoopbackHost(match[1]);
  };
}

/**
 * Whether a request's `Origin` (sent by browsers on every cross-origin request and on same-origin ones
 * that change something) is this server's own, or the one `--cors-origin` allows. No `Origin`: a program.
 */
export function originCheck(
  allowed: string | undefined,
): (origin: string | undefined, host: string | undefined) => boolean {
  return (origin, host) => {
    if (origin === undefined) return true;
    if (allowed !== undefined && origin === allowed) return true;
    return host !== undefined && origin === `http://${host}`;
  };
}
