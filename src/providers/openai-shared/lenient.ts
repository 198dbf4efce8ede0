/**
 * Reading what crosses the wire without trusting the SDK's types: the SDK passes stream JSON through
 * unvalidated, and OpenAI-compatible servers omit or null fields the types call required.
 */

/** `T` with every field, at every depth, optional and nullable. Any SDK type is assignable to it. */
export type Lenient<T> = T extends string | number | boolean | bigint | symbol
  ? T | null
  : T extends (infer Element)[]
    ? Lenient<Element>[]
    : T extends object
      ? { [Key in keyof T]?: Lenient<T[Key]> | null }
      : T | null;

/** A field the SDK types do not declare (e.g. a compatible server's `reasoning_content`). */
export function extraField(record: unknown, key: string): unknown {
  return typeof record === 'object' && record !== null ? (record as Record<string, unknown>)[key] : undefined;
}

/** A non-empty string, or undefined. */
export function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** A token count, or undefined when missing or not a count: unknown stays unknown, never 0. */
export function tokenCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}
