/**
 * A session/prompt's content blocks as the message Cody sends: text, file links, embedded buffers, images.
 */
import { describe, expect, it } from 'vitest';
import { promptInput } from '../../../src/acp/prompt-input.js';

describe('promptInput', () => {
  it('joins text and links, appends embedded text as context, and attaches images', () => {
    const input = promptInput([
      { type: 'text', text: 'Fix' },
      { type: 'resource_link', uri: 'file:///w/a%20b.ts', name: 'a b.ts' },
      { type: 'text', text: ' please' },
      { type: 'resource', resource: { uri: 'file:///w/c.ts', text: 'const c = 1;' } },
      { type: 'image', mimeType: 'image/png', data: 'AAAA' },
      { type: 'resource', resource: { uri: 'file:///w/p.png', blob: 'BBBB', mimeType: 'image/png' } },
    ]);
    expect(input.text).toBe('Fix @/w/a b.ts please\n\n<context ref="/w/c.ts">\nconst c = 1;\n</context>');
    expect(input.images).toEqual([{ data: 'AAAA' }, { data: 'BBBB', name: 'file:///w/p.png' }]);
  });

  it('refuses audio (not advertised) and an empty prompt', () => {
    expect(() => promptInput([{ type: 'audio', mimeType: 'audio/wav', data: 'AAAA' }])).toThrow(
      /not supported/,
    );
    expect(() => promptInput([])).toThrow(/empty/);
  });
});
