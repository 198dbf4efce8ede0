/**
 * Gemini accepts only a subset of JSON Schema in function declarations. This keeps the keywords it
 * documents and drops the rest (recursively), reporting what was dropped so the caller can say so.
 */

import { isRecord } from '../../protocol/index.js';

/** Keywords Gemini's `parametersJsonSchema` accepts. */
const GEMINI_KEYWORDS = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'items',
  'prefixItems',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'pattern',
  'anyOf',
  'oneOf',
  'properties',
  'additionalProperties',
  'required',
  'propertyOrdering',
  'minProperties',
  'maxProperties',
  'default',
  '$ref',
  '$defs',
  '$id',
  '$anchor',
]);
/** Keywords whose value is a map of names to schemas. */
const SCHEMA_MAPS = new Set(['properties', '$defs']);
/** Keywords whose value is one schema or a list of schemas. */
const SCHEMA_VALUES = new Set(['items', 'additionalProperties', 'anyOf', 'oneOf', 'prefixItems']);

export interface SanitizedSchema {
  schema: Record<string, unknown>;
  /** JSON-pointer-like paths of the dropped keywords, e.g. `properties.when.exclusiveMinimum`. */
  dropped: string[];
}

export function sanitizeGeminiSchema(schema: Record<string, unknown>): SanitizedSchema {
  const dropped: string[] = [];
  return { schema: clean(schema, '', dropped), dropped };
}

function clean(schema: Record<string, unknown>, path: string, dropped: string[]): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    const here = path === '' ? key : `${path}.${key}`;
    if (!GEMINI_KEYWORDS.has(key)) {
      dropped.push(here);
      continue;
    }
    if (SCHEMA_MAPS.has(key) && isRecord(value)) {
      result[key] = Object.fromEntries(
        Object.entries(value).map(([name, child]) => [
          name,
          isRecord(child) ? clean(child, `${here}.${name}`, dropped) : child,
        ]),
      );
    } else if (SCHEMA_VALUES.has(key) && Array.isArray(value)) {
      result[key] = value.map((child, index) =>
        isRecord(child) ? clean(child, `${here}.${index}`, dropped) : child,
      );
    } else if (SCHEMA_VALUES.has(key) && isRecord(value)) {
      result[key] = clean(value, here, dropped);
    } else if (key === 'enum' && Array.isArray(value)) {
      // Gemini's enums are strings.
      result[key] = value.map(String);
    } else {
      result[key] = value;
    }
  }
  return result;
}
