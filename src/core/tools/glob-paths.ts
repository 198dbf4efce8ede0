/**
 * What an unquoted wildcard word (`*`, `docs/*.md`, `src/?/a.ts`) names on disk now, the way the shell will
 * expand it, so that each match is checked like a path written out: `grep -r x *` hands `grep` a symlink
 * out of the workspace by name if one matches, and a command follows the links it is given by name.
 * Conservative: hidden entries match too, and a directory too large to read answers undefined.
 */
import { readdirSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

/** Directory entries read for one word before giving up (a word matching more is not checked). */
const MAX_ENTRIES = 5000;

/** The paths (relative to `cwd` when the word is) that `pattern` matches; undefined when too many to read. */
export function globMatches(cwd: string, pattern: string): string[] | undefined {
  const absolute = isAbsolute(pattern);
  const parts = pattern.split('/').filter((part) => part !== '');
  let found: string[] = [absolute ? '/' : ''];
  let budget = MAX_ENTRIES;
  for (const part of parts) {
    if (!/[*?[]/.test(part)) {
      found = found.map((base) => (base === '' ? part : join(base, part)));
      continue;
    }
    const matcher = componentMatcher(part);
    const next: string[] = [];
    for (const base of found) {
      let names: string[];
      try {
        names = readdirSync(absolute ? base : join(cwd, base || '.'));
      } catch {
        continue;
      }
      budget -= names.length;
      if (budget < 0) return undefined;
      for (const name of names) if (matcher.test(name)) next.push(base === '' ? name : join(base, name));
    }
    found = next;
  }
  return found.filter((path) => path !== '' && path !== '/');
}

/** A regular expression for one path component with `*`, `?` and `[…]`. */
function componentMatcher(component: string): RegExp {
  let source = '';
  for (let index = 0; index < component.length; index += 1) {
    const char = component[index] ?? '';
    if (char === '*') source += '.*';
    else if (char === '?') source += '.';
    else if (char === '[') {
      const end = component.indexOf(']', index + 2);
      if (end < 0) source += '\\[';
      else {
        const inner = component
          .slice(index + 1, end)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\');
        source += `[${inner}]`;
        index = end;
      }
    } else source += char.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  try {
    return new RegExp(`^${source}$`, 's');
  } catch {
    // An odd bracket: match everything, which is the conservative answer.
    return /^/;
  }
}
