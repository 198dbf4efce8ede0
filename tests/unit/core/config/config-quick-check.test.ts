/** The zod-free path for the config shapes Cody writes never accepts what the full schema would not. */
import { describe, expect, it } from 'vitest';
import { quickCheckedConfig } from '../../../../src/core/config/config-quick-check.js';
import { configSchema } from '../../../../src/core/config/config-schema.js';

const common: unknown[] = [
  {},
  { provider: 'anthropic', api: 'messages', model: 'claude-sonnet-4-6' },
  {
    provider: 'openai',
    api: 'chat',
    model: 'llama3.1:8b',
    baseUrls: { openai: 'http://localhost:11434/v1' },
  },
  { provider: 'openai', api: 'responses', model: 'gpt-5.1-codex', auth: { openai: 'chatgpt' } },
  { provider: 'anthropic', auth: { anthropic: 'claude' } },
  { provider: 'ollama', model: 'qwen3', baseUrls: { ollama: 'https://gpu.example:8443/v1' } },
];

/** Refused by the schema. */
const invalid: unknown[] = [
  null,
  [],
  'openai',
  { provider: 'nope' },
  { provider: 5 },
  { model: '' },
  { api: 7 },
  { baseUrls: { openai: 'ftp://example.com' } },
  { baseUrls: { openai: 'not a url' } },
  { baseUrls: ['http://localhost'] },
  { auth: { openai: 'claude' } },
  { auth: 'chatgpt' },
];

/** Valid, but not a shape Cody writes (the schema reads them, stripping or keeping what it should). */
const otherValid: unknown[] = [
  { auth: { openai: 'chatgpt', extra: true } },
  { provider: 'openai', compact: { threshold: 0.5 } },
  { provider: 'openai', retry: { maxRetries: 9 } },
  { provider: 'openai', mcpServers: { files: { command: 'x' } } },
  { provider: 'openai', unknownKey: 1 },
];

describe('quickCheckedConfig', () => {
  it('accepts the shapes set-provider and auth write, exactly as the schema reads them', () => {
    for (const raw of common) {
      const quick = quickCheckedConfig(raw);
      expect(quick, JSON.stringify(raw)).toBeDefined();
      const full = configSchema.safeParse(raw);
      expect(full.success, JSON.stringify(raw)).toBe(true);
      expect(quick).toEqual(full.data);
    }
  });

  it('leaves everything else to the schema (which gives the error, or reads extra settings)', () => {
    for (const raw of [...invalid, ...otherValid]) {
      expect(quickCheckedConfig(raw), JSON.stringify(raw)).toBeUndefined();
    }
    // The cases are what they claim: the schema refuses the invalid ones and reads the others.
    for (const raw of invalid) expect(configSchema.safeParse(raw).success, JSON.stringify(raw)).toBe(false);
    for (const raw of otherValid) expect(configSchema.safeParse(raw).success, JSON.stringify(raw)).toBe(true);
  });
});
