import { describe, expect, it } from 'vitest';
import { sanitizeGeminiSchema } from '../../../src/providers/gemini/sanitize-schema.js';

describe('Gemini schema subset', () => {
  it('keeps what Gemini accepts, drops the rest recursively, and says what was dropped', () => {
    const { schema, dropped } = sanitizeGeminiSchema({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        when: { type: 'string', format: 'date-time', examples: ['2026-01-01'] },
        count: { type: 'integer', exclusiveMinimum: 0, description: 'how many' },
        tags: { type: 'array', items: { type: 'string', const: 'x' } },
        mode: { enum: [1, 'two'] },
        nested: { anyOf: [{ type: 'string', not: { const: '' } }, { type: 'null' }] },
      },
      required: ['when'],
      additionalProperties: false,
    });
    expect(schema).toEqual({
      type: 'object',
      properties: {
        when: { type: 'string', format: 'date-time' },
        count: { type: 'integer', description: 'how many' },
        tags: { type: 'array', items: { type: 'string' } },
        mode: { enum: ['1', 'two'] },
        nested: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      },
      required: ['when'],
      additionalProperties: false,
    });
    expect(dropped).toEqual([
      '$schema',
      'properties.when.examples',
      'properties.count.exclusiveMinimum',
      'properties.tags.items.const',
      'properties.nested.anyOf.0.not',
    ]);
  });

  it('leaves the built-in tools’ schemas alone', async () => {
    const { BUILTIN_TOOL_SPECS } = await import('../../../src/core/tools/tool-specs.js');
    for (const spec of BUILTIN_TOOL_SPECS) expect(sanitizeGeminiSchema(spec.parameters).dropped).toEqual([]);
  });
});
