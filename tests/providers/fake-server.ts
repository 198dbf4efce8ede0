/** One loopback fake provider per test file: started before, stopped after, emptied between tests. */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { FakeProviderServer } from '../fake-provider/server.js';

export function withFakeServer(server: FakeProviderServer = new FakeProviderServer()): FakeProviderServer {
  beforeAll(async () => {
    await server.start();
  });
  afterAll(async () => {
    await server.stop();
  });
  beforeEach(() => {
    server.reset();
  });
  return server;
}
