/** The OpenAPI document kept in the repo describes exactly the routes the server has. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { providerList } from '../../src/core/config/config.js';
import { buildRoutes } from '../../src/server/http-server.js';
import { GlobalEvents } from '../../src/server/global-events.js';
import { LiveConversations } from '../../src/server/live-conversations.js';
import type { ServerContext } from '../../src/server/server-context.js';
import { WEB_LAYER_OPERATIONS } from '../../src/server/web-layer.js';
import { FakeEngine } from './fake-engine.js';

interface Operation {
  responses: Record<string, unknown>;
  requestBody?: unknown;
}
type Document = {
  openapi: string;
  paths: Record<string, Record<string, Operation | unknown[]>>;
  components: unknown;
};

const documentPath = join(import.meta.dirname, '../../src/server/openapi.json');
const document = JSON.parse(readFileSync(documentPath, 'utf8')) as Document;
const METHODS = ['get', 'post', 'put', 'delete', 'patch'];

function routeKeys(): string[] {
  const engine = new FakeEngine();
  const context: ServerContext = {
    engine,
    live: new LiveConversations({ engine }),
    streams: new Set(),
    conversationStreams: new Map(),
    signals: new GlobalEvents(),
    heartbeatMs: 15_000,
    redactFrame: (data: string) => data,
    extraHeaders: {},
  };
  return buildRoutes(context).map((route) => `${route.method} ${route.path}`);
}

function documentedOperations(): Array<[string, Operation]> {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]): [string, Operation] => [
        `${method.toUpperCase()} ${path}`,
        operation as Operation,
      ]),
  );
}

describe('openapi.json', () => {
  it('is an OpenAPI 3.1 document listing exactly the served routes', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(
      documentedOperations()
        .map(([key]) => key)
        .sort(),
    ).toEqual([...routeKeys(), ...WEB_LAYER_OPERATIONS].sort());
  });

  it('documents the 401 and 403 of every route, and 400/413 of every route that takes a body', () => {
    for (const [key, operation] of documentedOperations()) {
      // 403: another origin, or a session cookie without its secret (web-session-secret.test.ts).
      expect(Object.keys(operation.responses), key).toEqual(expect.arrayContaining(['401', '403']));
      if (operation.requestBody !== undefined) {
        expect(Object.keys(operation.responses), key).toEqual(expect.arrayContaining(['400', '413']));
      }
    }
  });

  it('declares every object exactly (additionalProperties: false) and no server path (filePath)', () => {
    const loose: string[] = [];
    const walk = (value: unknown, where: string): void => {
      if (Array.isArray(value)) value.forEach((item, index) => walk(item, `${where}/${index}`));
      if (typeof value !== 'object' || value === null) return;
      const node = value as Record<string, unknown>;
      // An open object is allowed only where the data is free-form by nature (a ghost commit, an opaque item).
      const freeForm = ['ghost_commit', 'raw'].some((name) => where.endsWith(`/properties/${name}`));
      if (node.type === 'object' && node.properties !== undefined && node.additionalProperties !== false)
        loose.push(where);
      if (
        node.type === 'object' &&
        node.properties === undefined &&
        node.additionalProperties === undefined &&
        !freeForm
      )
        loose.push(where);
      for (const [key, child] of Object.entries(node)) walk(child, `${where}/${key}`);
    };
    walk(document.components, '#/components');
    expect(loose).toEqual([]);
    expect(JSON.stringify(document)).not.toContain('filePath');
  });

  it('fits every registered provider name in its provider schema (the registry decides which exist)', () => {
    const schemas = (
      document.components as {
        schemas: Record<string, { properties?: Record<string, { pattern?: string }> }>;
      }
    ).schemas;
    for (const name of ['Selection', 'SelectionOptional']) {
      const pattern = schemas[name]?.properties?.provider?.pattern ?? '';
      for (const provider of providerList()) expect(provider, name).toMatch(new RegExp(pattern));
    }
  });

  it('declares 405 (with Allow) for every operation', () => {
    for (const [key, operation] of documentedOperations()) {
      expect(operation.responses['405'], key).toEqual({ $ref: '#/components/responses/MethodNotAllowed' });
    }
  });

  it('is what GET /openapi.json serves', async () => {
    const { openApiDocument } = await import('../../src/server/openapi.js');
    expect(openApiDocument).toEqual(document);
  });
});
