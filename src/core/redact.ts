/**
 * Secrets out of what Cody keeps: API-key shapes of the providers people paste most (OpenAI, Anthropic,
 * Google, GitHub, AWS) and the person's own `redact` patterns from config.json are replaced by
 * `[REDACTED]` before text reaches a rollout, the prompt history or an export.
 */
import { UsageError } from './errors.js';

export const REDACTED = '[REDACTED]';

/** Known key shapes. Each is long and specific enough not to eat ordinary prose or ids. */
export const KEY_SHAPES: ReadonlyArray<{ name: string; pattern: RegExp }> = [
  // Anthropic first: its keys also start with "sk-".
  { name: 'anthropic', pattern: /\bsk-ant-[A-Za-z0-9_-]{16,}/g },
  // OpenAI: sk-…, sk-proj-…, sk-svcacct-… (legacy keys are 48 characters of base62 after "sk-").
  { name: 'openai', pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g },
  // Google API keys: "AIza" and 35 characters.
  { name: 'google', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  // GitHub tokens: classic (ghp_, gho_, ghu_, ghs_, ghr_) and fine-grained (github_pat_).
  { name: 'github', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})\b/g },
  // AWS access key ids, and secret keys where they are labelled as such.
  { name: 'aws-access-key-id', pattern: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16}\b/g },
  {
    name: 'aws-secret-access-key',
    pattern:
      /(aws_secret_access_key|secretaccesskey|aws_secret_key)(["']?\s*[:=]\s*["']?)[A-Za-z0-9/+=]{40}/gi,
  },
];

export type Redactor = (text: string) => string;

/**
 * A redactor for the built-in shapes plus `patterns` (regular-expression sources from config; an invalid
 * one is reported by `compileRedactPatterns`, never silently skipped).
 */
export function createRedactor(patterns: readonly string[] = []): Redactor {
  const extra = compileRedactPatterns(patterns);
  return (text) => {
    let result = text;
    for (const { name, pattern } of KEY_SHAPES) {
      result = result.replace(pattern, (...match: unknown[]) =>
        name === 'aws-secret-access-key' ? `${String(match[1])}${String(match[2])}${REDACTED}` : REDACTED,
      );
    }
    for (const pattern of extra) result = result.replace(pattern, REDACTED);
    return result;
  };
}

/** Compiles config patterns (global, so every occurrence goes); throws a clear error for a bad one. */
export function compileRedactPatterns(patterns: readonly string[]): RegExp[] {
  return patterns
    .filter((source) => source !== '')
    .map((source) => {
      try {
        return new RegExp(source, 'g');
      } catch (error) {
        throw new UsageError(
          `config.json: redact pattern '${source}' is not a valid regular expression (${error instanceof Error ? error.message : String(error)}).`,
        );
      }
    });
}

/** Applies a redactor to every string inside a JSON-like value (objects and arrays are copied). */
export function redactDeep<T>(value: T, redact: Redactor): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((entry: unknown) => redactDeep(entry, redact)) as T;
  if (typeof value === 'object' && value !== null) {
    const copy: Record<string, unknown> = {};
    for (const [key, entry] of Object.entries(value)) copy[key] = redactDeep(entry, redact);
    return copy as T;
  }
  return value;
}
