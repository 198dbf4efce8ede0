import { describe, expect, it } from 'vitest';
import { formatRows, relativeTime, uniquePrefixes } from '../../../src/cli/commands/list.js';
import { mistypedCommand } from '../../../src/cli/main.js';
import { withStdinBlock } from '../../../src/cli/message.js';
import { generateTitle } from '../../../src/core/store/conversation-titles.js';

describe('list formatting', () => {
  it('gives each id the shortest unique prefix (8 at least), never ending in a dash', () => {
    const ids = [
      '0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
      '0193a1b2-c3d4-7fff-8a9b-0c1d2e3f4a5b',
      '0193a1b2-c3d5-7e5f-8a9b-0c1d2e3f4a5b',
      '0294a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
    ];
    const prefixes = uniquePrefixes(ids);
    expect(prefixes.get(ids[0] ?? '')).toBe('0193a1b2-c3d4-7e');
    expect(prefixes.get(ids[1] ?? '')).toBe('0193a1b2-c3d4-7f');
    expect(prefixes.get(ids[2] ?? '')).toBe('0193a1b2-c3d5');
    expect(prefixes.get(ids[3] ?? '')).toBe('0294a1b2');
  });

  it('says how long ago in words', () => {
    const now = Date.parse('2026-11-22T12:00:00Z');
    expect(relativeTime('2026-11-22T11:59:30Z', now)).toBe('just now');
    expect(relativeTime('2026-11-22T11:55:00Z', now)).toBe('5m ago');
    expect(relativeTime('2026-11-22T09:00:00Z', now)).toBe('3h ago');
    expect(relativeTime('2026-11-21T09:00:00Z', now)).toBe('yesterday');
    expect(relativeTime('2026-11-18T09:00:00Z', now)).toBe('4d ago');
  });

  it('fits every row into the width, dropping the model column before the title', () => {
    const row = {
      marker: '*',
      id: '0193a1b2',
      when: '5m ago',
      model: 'claude-sonnet-4-6-very-long-model-name',
      messages: '12',
      text: 'A very long title '.repeat(10),
    };
    for (const width of [120, 60, 40]) {
      const lines = formatRows([row, row], width);
      for (const line of lines) expect(line.length).toBeLessThanOrEqual(width);
      expect(lines[1]).toContain('0193a1b2');
      expect(lines[1]).toContain('A very long');
    }
    expect(formatRows([row], 120)[1]).toContain('claude-sonnet');
    expect(formatRows([row], 40)[1]).not.toContain('claude');
    // A short model name (7 characters: the default gpt-5.4) keeps its column when there is room.
    const short = formatRows([{ ...row, model: 'gpt-5.4', text: 'Zebras' }], Number.POSITIVE_INFINITY);
    expect(short[0]).toMatch(/UPDATED +MODEL +MSGS/);
    expect(short[1]).toContain('gpt-5.4');
  });

  it('keeps a truncated title at 30 and 26 columns, dropping the count and the time first', () => {
    const row = {
      marker: ' ',
      id: '0193a1b2',
      when: 'yesterday',
      model: 'gpt-4o',
      messages: '12',
      text: 'Zebras and their stripes',
    };
    for (const width of [30, 26]) {
      const line = formatRows([row], width)[1] ?? '';
      expect(line.length).toBeLessThanOrEqual(width);
      expect(line).toMatch(/0193a1b2 +Zebras and/);
    }
  });
});

describe('command typos and prompts', () => {
  const commands = ['new', 'chat', 'list', 'resume', 'show', 'status', 'export'];
  it('answers a mistyped command with the command it resembles', () => {
    expect(mistypedCommand(['lsit'], commands)).toMatch(/unknown command 'lsit'. Did you mean 'cody list'/);
    expect(mistypedCommand(['chta', 'hi'], commands)).toMatch(/Did you mean 'cody chat'/);
    expect(mistypedCommand(['version'], commands)).toMatch(/cody --version/);
    expect(mistypedCommand(['stauts'], commands)).toMatch(/cody status/);
  });
  it('takes anything else as a prompt', () => {
    expect(mistypedCommand(['a question with spaces'], commands)).toBeUndefined();
    expect(mistypedCommand(['explain', 'this', 'code'], commands)).toBeUndefined();
    expect(mistypedCommand(['What', 'is', 'this?'], commands)).toBeUndefined();
  });
});

describe('stdin with a message', () => {
  it('appends piped text as a fenced block the data cannot close', () => {
    expect(withStdinBlock('summarize this:', 'data\n')).toBe('summarize this:\n\n```\ndata\n```');
    expect(withStdinBlock('x', 'a ``` b')).toBe('x\n\n````\na ``` b\n````');
    expect(withStdinBlock('', 'only stdin\n')).toBe('only stdin');
    expect(withStdinBlock('only typed', '')).toBe('only typed');
  });
});

describe('generated titles', () => {
  it('makes a short title of the first line', () => {
    expect(generateTitle('please fix the failing test in parser.ts\nmore')).toBe(
      'Fix the failing test in parser.ts',
    );
    expect(generateTitle('`cody list` is slow?')).toBe('Cody list is slow');
    expect(generateTitle(undefined)).toBeUndefined();
    const long = generateTitle('word '.repeat(40)) ?? '';
    expect(long.length).toBeLessThanOrEqual(60);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('model typos', () => {
  it('suggests the known model a typo resembles, and stays quiet for known ids and snapshots', async () => {
    const { unknownModelWarning } = await import('../../../src/cli/known-models.js');
    expect(unknownModelWarning('openai', 'gpt-4o-mni', false)).toMatch(/did you mean 'gpt-4o-mini'/);
    expect(unknownModelWarning('anthropic', 'claude-nonexistent-9', false)).toMatch(
      /'claude-nonexistent-9' is not a known anthropic model/,
    );
    expect(unknownModelWarning('openai', 'gpt-4o-mini', false)).toBeUndefined();
    expect(unknownModelWarning('openai', 'gpt-4o-2024-08-06', false)).toBeUndefined();
    expect(unknownModelWarning('openai', 'llama3.1:8b', true)).toBeUndefined();
  });
});
