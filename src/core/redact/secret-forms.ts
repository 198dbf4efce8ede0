/**
 * The forms a known secret takes in a tool's output besides itself: its base64 (standard and URL-safe, at
 * each of the three alignments a secret can have inside a longer base64 text) and its hex (lower and
 * upper case). A command wraps or spaces what it prints (`base64` at 76 columns, `xxd -p` at 60,
 * `hexdump`'s spaced bytes, `fold`), so every form is found in the text with its gaps (spaces, tabs,
 * colons, line breaks) removed, and what is replaced is the original span, gaps included.
 *
 * Cost stays linear: one pass drops the gaps, one regular expression (an alternation of the literal
 * forms) finds them all, and only a text that holds one pays for the map back to its own positions.
 */

/** Characters a command may put between the characters of an encoded secret (see `isGap`). */
const GAPS = /[\t :\r\n]+/g;

/** The base64 characters of `bytes` that depend on them alone when they start `offset` (0–2) bytes into a group. */
function alignedBase64(bytes: Buffer, offset: number): string {
  const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
  // Character i holds bits [6i, 6i + 6): keep those wholly inside the secret's bytes.
  return encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
}

/** The secret, its hex (both cases) and its base64 at each alignment (standard and URL-safe). */
export function encodedForms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const hex = bytes.toString('hex');
  const forms = [secret, hex, hex.toUpperCase()];
  for (const offset of [0, 1, 2]) {
    const standard = alignedBase64(bytes, offset);
    forms.push(standard, standard.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  // A form that holds a gap character could never be found in the text with its gaps removed.
  return [...new Set(forms.map((form) => form.replace(GAPS, '')))];
}

/** Every form of a list of secrets, compiled. */
export interface SecretForms {
  /** Longest first, gap characters removed. */
  readonly forms: readonly string[];
  /** Global alternation of the forms; undefined when there are none. */
  readonly find: RegExp | undefined;
  /** The forms by their first character (for the streaming tail). */
  readonly byFirst: ReadonlyMap<string, readonly string[]>;
}

export function compileSecretForms(secrets: readonly string[]): SecretForms {
  const forms = [...new Set(secrets.flatMap(encodedForms))]
    .filter((form) => form !== '')
    .sort((a, b) => b.length - a.length);
  const byFirst = new Map<string, string[]>();
  for (const form of forms) byFirst.set(form.charAt(0), [...(byFirst.get(form.charAt(0)) ?? []), form]);
  const find =
    forms.length === 0
      ? undefined
      : new RegExp(forms.map((form) => form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
  return { forms, find, byFirst };
}

/** Tab, line feed, carriage return, space, colon. */
function isGap(code: number): boolean {
  return code === 9 || code === 10 || code === 13 || code === 32 || code === 58;
}

/** Where each character of `text` without its gaps stands in `text` (and `text.length` after the last). */
function positionsOf(text: string, kept: number): Int32Array {
  const positions = new Int32Array(kept + 1);
  let next = 0;
  for (let index = 0; index < text.length; index += 1)
    if (!isGap(text.charCodeAt(index))) positions[next++] = index;
  positions[next] = text.length;
  return positions;
}

/** `text` without its gap characters, and (worked out when first asked) where each one stands in `text`. */
function withoutGaps(text: string): { compact: string; at: (index: number) => number } {
  const compact = text.replace(GAPS, '');
  if (compact.length === text.length) return { compact, at: (index) => index };
  let positions: Int32Array | undefined;
  return {
    compact,
    at: (index) => (positions ??= positionsOf(text, compact.length))[index] ?? text.length,
  };
}

/** The spans `[start, end)` of `text` that hold a form, gaps inside them included; in order, disjoint. */
export function formSpans(text: string, secretForms: SecretForms): Array<[number, number]> {
  const { find } = secretForms;
  if (!find) return [];
  const { compact, at } = withoutGaps(text);
  const spans: Array<[number, number]> = [];
  // exec, not matchAll: matchAll copies the expression (a long one) at every call.
  find.lastIndex = 0;
  for (let match = find.exec(compact); match !== null; match = find.exec(compact))
    spans.push([at(match.index), at(match.index + match[0].length - 1) + 1]);
  return spans;
}

/** `text` with every span that holds a form replaced by `replacement`. */
export function replaceForms(text: string, secretForms: SecretForms, replacement: string): string {
  const spans = formSpans(text, secretForms);
  if (spans.length === 0) return text;
  let result = '';
  let from = 0;
  for (const [start, end] of spans) {
    result += text.slice(from, start) + replacement;
    from = end;
  }
  return result + text.slice(from);
}

/**
 * The leftmost start of a tail of `text` that is (gaps aside) a proper prefix of a form: what a stream
 * must hold back until the next piece shows whether it is one. `text.length` when there is none.
 */
export function formTail(text: string, secretForms: SecretForms): number {
  const longest = secretForms.forms[0]?.length ?? 0;
  if (longest === 0) return text.length;
  const { compact, at } = withoutGaps(text);
  for (let index = Math.max(0, compact.length - longest + 1); index < compact.length; index += 1) {
    const candidates = secretForms.byFirst.get(compact.charAt(index));
    if (candidates === undefined) continue;
    for (const form of candidates) if (startsWithTail(form, compact, index)) return at(index);
  }
  return text.length;
}

/** Whether `form` is longer than `text` from `index` on, and begins with it. */
function startsWithTail(form: string, text: string, index: number): boolean {
  const length = text.length - index;
  if (form.length <= length) return false;
  for (let offset = 1; offset < length; offset += 1)
    if (form.charCodeAt(offset) !== text.charCodeAt(index + offset)) return false;
  return true;
}
