/** `cody serve`'s options, checked before anything listens: loopback unless the person says otherwise. */
import { isIP } from 'node:net';
import { UsageError } from '../core/index.js';

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 8080;

export interface ServeOptionsInput {
  host?: string;
  port?: string;
  allowRemote?: boolean;
  corsOrigin?: string;
}

export interface ServeOptions {
  host: string;
  port: number;
  corsOrigin?: string;
  /** Any `Host` header is answered (else only this server's loopback address and port). */
  allowRemote: boolean;
}

export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost' || bare === '::1') return true;
  return isIP(bare) === 4 && bare.startsWith('127.');
}

/** An "every interface" address (0.0.0.0, ::): no browser can open a link to it. */
export function isWildcardHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  return bare === '0.0.0.0' || bare === '::' || bare === '::0';
}

export function parseServeOptions(input: ServeOptionsInput): ServeOptions {
  const host = (input.host ?? DEFAULT_HOST).trim().replace(/^\[(.*)\]$/, '$1');
  if (host === '') throw new UsageError('--host must not be empty.');
  if (!isLoopbackHost(host) && input.allowRemote !== true) {
    throw new UsageError(
      `Refusing to listen on non-loopback host '${host}': anyone who can reach it could try the token. Add --allow-remote if you mean it.`,
    );
  }
  const portText = input.port ?? String(DEFAULT_PORT);
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || !Number.isInteger(port) || port > 65_535) {
    throw new UsageError(`--port must be a whole number from 0 to 65535 (got '${portText}').`);
  }
  const allowRemote = input.allowRemote === true;
  if (input.corsOrigin === undefined) return { host, port, allowRemote };
  let origin: URL;
  try {
    origin = new URL(input.corsOrigin);
  } catch {
    throw new UsageError(
      `--cors-origin must be an origin such as http://localhost:3000 (got '${input.corsOrigin}').`,
    );
  }
  if (!/^https?:$/.test(origin.protocol) || origin.origin !== input.corsOrigin.replace(/\/$/, '')) {
    throw new UsageError(
      `--cors-origin must be an origin such as http://localhost:3000 (got '${input.corsOrigin}').`,
    );
  }
  return { host, port, corsOrigin: origin.origin, allowRemote };
}
