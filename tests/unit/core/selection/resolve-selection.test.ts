/** The one resolution of provider, API, model, base URL and sign-in, case by case (issue 20). */
import { describe, expect, it } from 'vitest';
import type { CodyConfig } from '../../../../src/core/config/config.js';
import {
  type RecordedSelection,
  recordedSelectionOf,
  resolveConversationSelection,
  type SelectionSources,
} from '../../../../src/core/selection/resolve-selection.js';
import type { SessionMetaPayload } from '../../../../src/core/rollout/schema.js';

const EARLIER = '2026-11-01T10:00:00.000Z';
const LATER = '2026-11-02T10:00:00.000Z';

const recordedMini: RecordedSelection = {
  provider: 'openai',
  api: 'openai-chat',
  model: 'gpt-4o-mini',
  at: LATER,
};
const setProviderAnthropic: CodyConfig = {
  provider: 'anthropic',
  api: 'messages',
  model: 'claude-sonnet-4-6',
  selectedAt: EARLIER,
};
const signedIn: CodyConfig = {
  provider: 'openai',
  api: 'responses',
  model: 'gpt-5',
  auth: { openai: 'chatgpt' },
  baseUrls: { openai: 'http://127.0.0.1:9/backend-api/codex' },
  selectedAt: LATER,
};

interface Case {
  name: string;
  sources: SelectionSources;
  expected: Record<string, unknown>;
  /** Keys that must be absent from the result. */
  absent?: string[];
}

const CASES: Case[] = [
  {
    name: 'nothing anywhere: the defaults',
    sources: { config: {} },
    expected: {
      provider: 'openai',
      api: 'openai-chat',
      apiName: 'chat',
      model: 'gpt-5.4',
      source: 'defaults',
    },
    absent: ['auth', 'baseUrl'],
  },
  {
    name: 'a hand-written config, new conversation: the config',
    sources: { config: { provider: 'google', model: 'gemini-2.5-pro' } },
    expected: { provider: 'google', api: 'gemini', model: 'gemini-2.5-pro', source: 'config' },
  },
  {
    name: 'a hand-written config never moves an existing conversation: what it recorded',
    sources: { recorded: recordedMini, config: { provider: 'openai', model: 'gpt-4.1-mini' } },
    expected: { provider: 'openai', api: 'openai-chat', model: 'gpt-4o-mini', source: 'recorded' },
  },
  {
    name: 'set-provider before the conversation last ran: what it recorded',
    sources: { recorded: recordedMini, config: setProviderAnthropic },
    expected: { provider: 'openai', model: 'gpt-4o-mini', source: 'recorded' },
  },
  {
    name: 'set-provider after the conversation last ran: the set-provider choice',
    sources: {
      recorded: { ...recordedMini, at: EARLIER },
      config: { ...setProviderAnthropic, selectedAt: LATER },
    },
    expected: {
      provider: 'anthropic',
      api: 'anthropic-messages',
      model: 'claude-sonnet-4-6',
      source: 'set-provider',
    },
  },
  {
    name: 'a recorded selection without a time loses to any set-provider choice',
    sources: {
      recorded: { provider: 'openai', api: 'openai-chat', model: 'gpt-4o' },
      config: setProviderAnthropic,
    },
    expected: { provider: 'anthropic', source: 'set-provider' },
  },
  {
    name: 'a caller’s choice wins over the record and over a later set-provider',
    sources: {
      recorded: recordedMini,
      choice: { provider: 'google', model: 'gemini-2.5-flash' },
      config: { ...setProviderAnthropic, selectedAt: '2030-01-01T00:00:00.000Z' },
    },
    expected: { provider: 'google', api: 'gemini', model: 'gemini-2.5-flash', source: 'choice' },
  },
  {
    name: 'a choice naming the configured provider takes the API and model it leaves out from the config',
    sources: {
      choice: { provider: 'openai' },
      config: { provider: 'openai', api: 'responses', model: 'gpt-5' },
    },
    expected: { api: 'openai-responses', model: 'gpt-5', source: 'choice' },
  },
  {
    name: 'a choice naming another provider takes that provider’s defaults, never the config’s API',
    sources: {
      choice: { provider: 'anthropic' },
      config: { provider: 'openai', api: 'chat', model: 'gpt-4o' },
    },
    expected: { provider: 'anthropic', api: 'anthropic-messages', model: 'claude-sonnet-5-5' },
  },
  {
    name: 'a choice may name the wire API id',
    sources: { choice: { provider: 'openai', api: 'openai-responses', model: 'gpt-5' }, config: {} },
    expected: { api: 'openai-responses', apiName: 'responses' },
  },
  {
    name: 'a recorded API name of an older version still resolves',
    sources: {
      recorded: { provider: 'anthropic', api: 'messages', model: 'claude-opus-4-1', at: LATER },
      config: {},
    },
    expected: {
      provider: 'anthropic',
      api: 'anthropic-messages',
      model: 'claude-opus-4-1',
      source: 'recorded',
    },
  },
  {
    name: 'a recorded provider this version does not know: the config',
    sources: {
      recorded: { provider: 'mistral', api: 'mistral-chat', model: 'm', at: LATER },
      config: { provider: 'google' },
    },
    expected: { provider: 'google', source: 'config' },
  },
  {
    name: 'set-provider --auth chatgpt after the conversation last ran: the sign-in, its model and endpoint',
    sources: { recorded: { ...recordedMini, at: EARLIER }, config: signedIn },
    expected: {
      provider: 'openai',
      api: 'openai-responses',
      model: 'gpt-5',
      auth: 'chatgpt',
      baseUrl: 'http://127.0.0.1:9/backend-api/codex',
      source: 'set-provider',
    },
  },
  {
    name: 'a conversation on Chat Completions keeps its API: the ChatGPT sign-in cannot serve it, the key (and no sign-in endpoint) is used',
    sources: { recorded: { ...recordedMini, at: '2031-01-01T00:00:00.000Z' }, config: signedIn },
    expected: { api: 'openai-chat', model: 'gpt-4o-mini', unusableSignIn: 'chatgpt', source: 'recorded' },
    absent: ['auth', 'baseUrl'],
  },
  {
    name: 'the Claude sign-in applies to a recorded Anthropic conversation',
    sources: {
      recorded: { provider: 'anthropic', api: 'anthropic-messages', model: 'claude-sonnet-4-6', at: LATER },
      config: { auth: { anthropic: 'claude' } },
    },
    expected: { provider: 'anthropic', auth: 'claude', source: 'recorded' },
  },
  {
    name: 'a sign-in belongs to its provider only',
    sources: { choice: { provider: 'google' }, config: { auth: { openai: 'chatgpt' } } },
    expected: { provider: 'google' },
    absent: ['auth', 'unusableSignIn'],
  },
];

describe('resolveConversationSelection', () => {
  it.each(CASES)('$name', ({ sources, expected, absent }) => {
    const resolved = resolveConversationSelection(sources);
    expect(resolved).toMatchObject(expected);
    for (const key of absent ?? []) expect(resolved).not.toHaveProperty(key);
  });

  it('refuses a caller’s API the provider does not speak, with a usage error', () => {
    expect(() =>
      resolveConversationSelection({ choice: { provider: 'anthropic', api: 'chat' }, config: {} }),
    ).toThrow(expect.objectContaining({ kind: 'usage' }));
  });

  it('reads the record from the last turn context (with its line time), else from session_meta', () => {
    const meta = {
      id: 'x',
      timestamp: EARLIER,
      cwd: '/',
      originator: 'cody',
      cli_version: '0',
      provider: 'openai',
      api: 'openai-chat',
      model: 'gpt-4o-mini',
    } as SessionMetaPayload;
    expect(recordedSelectionOf({ meta })).toEqual({
      provider: 'openai',
      api: 'openai-chat',
      model: 'gpt-4o-mini',
      at: EARLIER,
    });
    const lastTurnContext = { provider: 'google', api: 'gemini', model: 'gemini-2.5-pro' };
    expect(recordedSelectionOf({ meta, lastTurnContext, lastTurnContextAt: LATER })).toEqual({
      ...lastTurnContext,
      at: LATER,
    });
  });
});
