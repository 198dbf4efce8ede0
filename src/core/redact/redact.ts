/**
 * Secrets out of what Cody shows and keeps: the keys Cody reads (exact values), API-key shapes of the
 * providers people paste most (OpenAI, Anthropic, Google, GitHub, AWS) and the person's own `redact`
 * patterns from config.json are replaced by `[REDACTED]` — in events, rollouts, the prompt history and
 * exports. Only values are replaced: a redactor works on strings, never on serialized JSON.
 *
 * Every matcher has two regular expressions: `find` (a whole secret) and `open` (anchored at the end: the
 * longest tail of a text that could still become, or grow into, a secret). The streaming redactor
 * (`redact-stream.ts`) holds back exactly what `open` finds.
 */
import { UsageError } from '../errors.js';
import { compileSecretForms, replaceForms, type SecretForms } from './secret-forms.js';

export const REDACTED = '[REDACTED]';

export type Redactor = (text: string) => string;

export interface SecretMatcher {
  name: string;
  /** Global: every whole secret. */
  find: RegExp;
  /** Ends with `$`: the leftmost start of a tail that could still be (part of) a secret. */
  open: RegExp;
  /** What replaces a match (the AWS secret keeps its label). */
  replace: (match: string, ...groups: string[]) => string;
}

/** `abc` → `a(?:b(?:c)?)?`: every non-empty prefix of a literal. */
function prefixesOf(literal: string): string {
  const chars = [...literal].map((char) => char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return chars.reduceRight((inner, char) => (inner === '' ? char : `${char}(?:${inner})?`), '');
}

/** A shape `\b<lead><body>{min,max}`: its open tail is a partial lead, or the lead and up to max body characters. */
function shape(
  name: string,
  find: RegExp,
  leads: readonly string[],
  body: string,
  max?: number,
): SecretMatcher {
  const partial = leads.map(prefixesOf).join('|');
  const whole = leads.map((lead) => lead.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  const count = max === undefined ? '*' : `{0,${max}}`;
  return {
    name,
    find,
    open: new RegExp(`\\b(?:(?:${whole})${body}${count}|${partial})$`),
    replace: () => REDACTED,
  };
}

const AWS_SECRET_LABELS = ['aws_secret_access_key', 'secretaccesskey', 'aws_secret_key'];

/** Known key shapes. Each is long and specific enough not to eat ordinary prose or ids. */
export const KEY_SHAPES: readonly SecretMatcher[] = [
  // Anthropic first: its keys also start with "sk-".
  shape('anthropic', /\bsk-ant-[A-Za-z0-9_-]{16,}/g, ['sk-ant-'], '[A-Za-z0-9_-]'),
  // OpenAI: sk-…, sk-proj-…, sk-svcacct-… (legacy keys are 48 characters of base62 after "sk-").
  shape('openai', /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g, ['sk-'], '[A-Za-z0-9_-]'),
  // Google API keys: "AIza" and 35 characters.
  shape('google', /\bAIza[0-9A-Za-z_-]{35}\b/g, ['AIza'], '[0-9A-Za-z_-]', 35),
  // GitHub tokens: classic (ghp_, gho_, ghu_, ghs_, ghr_) and fine-grained (github_pat_).
  shape(
    'github',
    /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})\b/g,
    ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'],
    '[A-Za-z0-9_]',
  ),
  // AWS access key ids, and secret keys where they are labelled as such.
  shape(
    'aws-access-key-id',
    /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16}\b/g,
    ['AKIA', 'ASIA', 'AGPA', 'AIDA', 'AROA', 'ANPA', 'ANVA', 'AIPA'],
    '[0-9A-Z]',
    16,
  ),
  {
    name: 'aws-secret-access-key',
    find: /(aws_secret_access_key|secretaccesskey|aws_secret_key)(["']?\s*[:=]\s*["']?)[A-Za-z0-9/+=]{40}/gi,
    open: new RegExp(
      `(?:(?:${AWS_SECRET_LABELS.join('|')})["']?\\s*(?:[:=]\\s*["']?[A-Za-z0-9/+=]{0,40})?|${AWS_SECRET_LABELS.map(prefixesOf).join('|')})$`,
      'i',
    ),
    replace: (_match, label = '', separator = '') => `${label}${separator}${REDACTED}`,
  },
];

/** Exact values shorter than this are too likely to occur by chance (and too weak to be real keys). */
export const MIN_SECRET_LENGTH = 8;

/** What a redactor replaces, besides the built-in key shapes. */
export interface RedactionOptions {
  /** Regular-expression sources from config.json's `redact`. */
  patterns?: readonly string[];
  /** Exact values: the keys Cody reads, the server token. Shorter than 8 characters: ignored. */
  secrets?: ReadonlyArray<string | undefined>;
}

/** The compiled matchers of one configuration; `holdsLines` says a config pattern may match whitespace. */
export interface Matchers {
  shapes: readonly SecretMatcher[];
  /** Exact values, longest first. */
  secrets: readonly string[];
  /** Those values, their base64 and their hex, found across gaps (secret-forms.ts). */
  forms: SecretForms;
  patterns: readonly RegExp[];
  /** A config pattern that can match whitespace: a stream holds back its last line, not its last word. */
  patternsSpanWords: boolean;
}

/** Exact values as matchers hold them: trimmed, long enough, once each, longest first. */
function exactSecrets(values: ReadonlyArray<string | undefined>): string[] {
  return [
    ...new Set(
      values.map((value) => value?.trim() ?? '').filter((value) => value.length >= MIN_SECRET_LENGTH),
    ),
  ].sort((a, b) => b.length - a.length);
}

/**
 * Replaces the exact values of compiled matchers in place, so every redactor holding them (a recorder,
 * an event stream) uses the new list from now on: secrets learnt after they were compiled.
 */
export function replaceSecrets(matchers: Matchers, secrets: ReadonlyArray<string | undefined>): void {
  matchers.secrets = exactSecrets(secrets);
  matchers.forms = compileSecretForms(matchers.secrets);
}

export function compileMatchers(options: RedactionOptions = {}): Matchers {
  const patterns = compileRedactPatterns(options.patterns ?? []);
  const secrets = exactSecrets(options.secrets ?? []);
  return {
    shapes: KEY_SHAPES,
    secrets,
    forms: compileSecretForms(secrets),
    patterns,
    patternsSpanWords: patterns.some((pattern) => mayMatchWhitespace(pattern.source)),
  };
}

/** Conservative: any construct that can match a space or a line break. */
function mayMatchWhitespace(source: string): boolean {
  return /\\[sWDbBntrvfxuc0pP]|[ .]|\[\^/.test(source);
}

/** Replaces every secret (and its encoded forms) in a whole text. */
export function redactText(text: string, matchers: Matchers): string {
  let result = replaceForms(text, matchers.forms, REDACTED);
  for (const { find, replace } of matchers.shapes) {
    find.lastIndex = 0;
    if (find.test(result)) result = result.replace(find, replace);
  }
  for (const pattern of matchers.patterns) result = result.replace(pattern, REDACTED);
  return result;
}

/**
 * A redactor for the built-in shapes plus `patterns` (regular-expression sources from config; an invalid
 * one is reported by `compileRedactPatterns`, never silently skipped) and exact `secrets`.
 */
export function createRedactor(patterns: readonly string[] = [], secrets: readonly string[] = []): Redactor {
  const matchers = compileMatchers({ patterns, secrets });
  return (text) => redactText(text, matchers);
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

/** Applies a redactor to every string inside a JSON-like value (objects and arrays are copied; keys are kept). */
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
