/**
 * A provider's own model list, cached in $CODY_HOME for a day: fetched once, then read from the cache
 * until it is a day old; the limits it reports win over the catalogue's; and the typo warning trusts it
 * (no warning for a listed model, a suggestion that names a listed one).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { unknownModelWarning } from '../../../../src/cli/known-models.js';
import { resolveSelection } from '../../../../src/core/config/index.js';
import {
  MODEL_LIST_FILE,
  MODEL_LIST_MAX_AGE_MS,
  listedLimits,
  lookupModelLimits,
  providerModelList,
} from '../../../../src/core/selection/index.js';
import { withFakeServer } from '../../../providers/fake-server.js';

const server = withFakeServer();
let home: string;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'cody-model-lists-'));
  server.models = ['gemini-3.8-flash', 'gemini-3.1-pro-preview'];
  server.modelLimits = { 'gemini-3.8-flash': { contextWindow: 2_097_152, maxOutputTokens: 131_072 } };
});
afterEach(async () => {
  server.modelLimits = {};
  await rm(home, { recursive: true, force: true });
});

function query() {
  const selection = resolveSelection({ provider: 'google', model: 'gemini-3.8-flash' });
  return { home, selection, env: { GEMINI_API_KEY: 'gemini-key', GOOGLE_GEMINI_BASE_URL: server.url } };
}

describe('the cached model list', () => {
  it('is fetched once, then read from $CODY_HOME until it is a day old', async () => {
    const first = await providerModelList(query());
    expect(first.cached).toBe(false);
    expect(first.models.map((model) => model.id)).toEqual(['gemini-3.1-pro-preview', 'gemini-3.8-flash']);
    const onDisk = JSON.parse(await readFile(join(home, MODEL_LIST_FILE), 'utf8')) as Record<
      string,
      { fetchedAt: number; models: unknown[] }
    >;
    expect(onDisk.google?.models).toHaveLength(2);
    const second = await providerModelList(query());
    expect(second).toMatchObject({ cached: true, models: first.models });
    expect(server.requests).toHaveLength(1);
    // A day later the provider is asked again.
    const stale = { google: { ...onDisk.google, fetchedAt: Date.now() - MODEL_LIST_MAX_AGE_MS - 1 } };
    await writeFile(join(home, MODEL_LIST_FILE), JSON.stringify(stale));
    expect((await providerModelList(query())).cached).toBe(false);
    expect(server.requests).toHaveLength(2);
  });

  it('gives the limits the provider reports, which win over the catalogue’s', async () => {
    expect(lookupModelLimits('gemini-3.8-flash')).toMatchObject({
      contextWindow: 1_048_576,
      source: 'catalog',
    });
    await providerModelList(query());
    const listed = listedLimits(home, { provider: 'google' }, 'gemini-3.8-flash');
    expect(listed).toEqual({ contextWindow: 2_097_152, maxOutputTokens: 131_072 });
    expect(lookupModelLimits('gemini-3.8-flash', {}, listed)).toEqual({
      contextWindow: 2_097_152,
      maxOutputTokens: 131_072,
      source: 'listed',
    });
    // config.json still wins over the list.
    const config = { models: { 'gemini-3.8-flash': { contextWindow: 500_000 } } };
    expect(lookupModelLimits('gemini-3.8-flash', config, listed).contextWindow).toBe(500_000);
    expect(listedLimits(home, { provider: 'google' }, 'gemini-3.1-pro-preview')).toBeUndefined();
  });

  it('the typo warning: none for a listed model, and a suggestion that is listed', () => {
    const listed = ['claude-sonnet-6', 'claude-opus-6'];
    expect(unknownModelWarning('anthropic', 'claude-sonnet-6', false, listed)).toBeUndefined();
    expect(unknownModelWarning('anthropic', 'claude-sonet-6', false, listed)).toMatch(
      /not in anthropic's model list; did you mean 'claude-sonnet-6'\?/,
    );
    // The issue's example: a current model is known without any list.
    expect(unknownModelWarning('anthropic', 'claude-sonnet-5-5', false)).toBeUndefined();
  });
});
