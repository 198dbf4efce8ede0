/**
 * A small route table: `METHOD /path/{param}` patterns (the OpenAPI spelling, so the document in
 * openapi.json is checked against exactly these) matched segment by segment.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from './api-error.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RouteContext {
  params: Record<string, string>;
  query: URLSearchParams;
  /** The parsed JSON body (undefined when empty); read lazily so GET never waits for one. */
  body(): Promise<unknown>;
  request: IncomingMessage;
  response: ServerResponse;
}

/** A JSON answer; a handler that writes the response itself (SSE) returns undefined. */
export interface Reply {
  status: number;
  body: unknown;
}

export interface Route {
  method: Method;
  path: string;
  handler(context: RouteContext): Promise<Reply | undefined>;
  /** The body may carry images (base64): it is read up to the larger limit of such bodies. */
  imageBody?: true;
}

export interface Match {
  route: Route;
  params: Record<string, string>;
}

/** A route with its path split once: each segment a literal, or the name of the parameter it binds. */
export interface CompiledRoute {
  route: Route;
  segments: ReadonlyArray<{ literal: string } | { param: string }>;
}

export function compileRoutes(routes: readonly Route[]): CompiledRoute[] {
  return routes.map((route) => ({
    route,
    segments: route.path
      .split('/')
      .slice(1)
      .map((part) => {
        const name = /^\{(\w+)\}$/.exec(part)?.[1];
        return name !== undefined ? { param: name } : { literal: part };
      }),
  }));
}

export function matchRoute(routes: readonly CompiledRoute[], method: string, pathname: string): Match {
  const segments = pathname.split('/').slice(1);
  const allowed: string[] = [];
  for (const compiled of routes) {
    const params = matchPath(compiled, segments);
    if (!params) continue;
    if (compiled.route.method === method) return { route: compiled.route, params };
    allowed.push(compiled.route.method);
  }
  if (allowed.length > 0) {
    // RFC 9110: a 405 names the methods the resource has.
    throw new ApiError(405, 'method-not-allowed', `${method} is not allowed on ${pathname}.`, {
      allow: allowed.join(', '),
    });
  }
  throw new ApiError(404, 'not-found', `No route for ${method} ${pathname}.`);
}

function matchPath(
  { segments: parts }: CompiledRoute,
  segments: string[],
): Record<string, string> | undefined {
  if (parts.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, part] of parts.entries()) {
    const segment = segments[index] ?? '';
    if ('param' in part) {
      if (segment === '') return undefined;
      try {
        params[part.param] = decodeURIComponent(segment);
      } catch {
        return undefined;
      }
    } else if (part.literal !== segment) {
      return undefined;
    }
  }
  return params;
}
