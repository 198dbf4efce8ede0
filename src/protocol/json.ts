/** JSON as it is read from disk or the wire, before anything about its shape is trusted. */

export type JsonObject = Record<string, unknown>;

/** A JSON object: not null, not an array. */
export function isRecord(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
