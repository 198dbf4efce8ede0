/**
 * How deeply a page's elements nest, read in one pass over the HTML without building a DOM: Readability
 * and turndown walk the tree recursively and slow down steeply with depth (1,000 unclosed `<div>`s took
 * 22 s; 2,000 overflowed the stack), so a page past the limit is refused before it is parsed. The count
 * follows what the parser (linkedom) builds: void elements and `/>` in SVG or MathML open nothing, the
 * text of `<script>`, `<style>`, `<textarea>`, `<title>` and `<xmp>` holds no tags, comments and CDATA
 * are skipped, an end tag closes everything opened after its element (a stray one closes nothing), and
 * the elements whose end tag may be left out (`<p>`, `<li>`, `<td>`, `<option>`, …) close when the next
 * one starts.
 */

const VOID_ELEMENTS = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

const RAW_TEXT_ELEMENTS = new Set(['script', 'style', 'textarea', 'title', 'xmp']);

/** Block elements that end an open paragraph. */
const CLOSES_PARAGRAPH = [
  'address',
  'article',
  'aside',
  'blockquote',
  'details',
  'div',
  'dl',
  'fieldset',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'main',
  'menu',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'table',
  'ul',
];

/** For an element, the open elements (at the top of the stack) that its start tag closes. */
const IMPLIED_ENDS = new Map<string, ReadonlySet<string>>([
  ...CLOSES_PARAGRAPH.map((name): [string, ReadonlySet<string>] => [name, new Set(['p'])]),
  ['li', new Set(['li'])],
  ['dt', new Set(['dt', 'dd'])],
  ['dd', new Set(['dt', 'dd'])],
  ['td', new Set(['td', 'th'])],
  ['th', new Set(['th'])],
  ['tr', new Set(['tr', 'td', 'th'])],
  ['option', new Set(['option'])],
  ['optgroup', new Set(['optgroup', 'option'])],
]);

/**
 * The deepest nesting of elements in `html` (a bare `<p>` is 1), counting no further than `limit + 1`:
 * the scan stops as soon as the page is known to be over the limit.
 */
export function htmlNestingDepth(html: string, limit: number): number {
  const stack: string[] = [];
  const open = new Map<string, number>();
  const push = (name: string): void => {
    stack.push(name);
    open.set(name, (open.get(name) ?? 0) + 1);
  };
  const pop = (): void => {
    const name = stack.pop();
    if (name !== undefined) open.set(name, (open.get(name) ?? 1) - 1);
  };
  let deepest = 0;
  let at = html.indexOf('<');
  while (at !== -1 && at < html.length) {
    const tag = readTag(html, at);
    if (tag.kind === 'start') {
      const closes = IMPLIED_ENDS.get(tag.name);
      while (closes !== undefined && stack.length > 0 && closes.has(stack[stack.length - 1] ?? '')) pop();
      deepest = Math.max(deepest, stack.length + 1);
      if (deepest > limit) return deepest;
      const foreign = (open.get('svg') ?? 0) + (open.get('math') ?? 0) > 0;
      if (!tag.empty && !VOID_ELEMENTS.has(tag.name) && !(tag.selfClosing && foreign)) push(tag.name);
    } else if (tag.kind === 'end' && (open.get(tag.name) ?? 0) > 0) {
      while (stack.length > 0 && stack[stack.length - 1] !== tag.name) pop();
      pop();
    }
    at = html.indexOf('<', tag.end);
  }
  return deepest;
}

type Tag =
  /** `empty`: its content is text (a script, a style…), already skipped. */
  | { kind: 'start'; name: string; selfClosing: boolean; empty: boolean; end: number }
  | { kind: 'end'; name: string; end: number }
  | { kind: 'other'; end: number };

/** The markup that starts at `at` (a `<`), and where the scan goes on after it. */
function readTag(html: string, at: number): Tag {
  if (html.startsWith('<!--', at)) return { kind: 'other', end: endOf(html, '-->', at + 4) };
  if (html.startsWith('<![CDATA[', at)) return { kind: 'other', end: endOf(html, ']]>', at + 9) };
  const next = html[at + 1] ?? '';
  if (next === '!' || next === '?') return { kind: 'other', end: endOf(html, '>', at + 2) };
  const closing = next === '/';
  const nameStart = closing ? at + 2 : at + 1;
  if (!/[a-z]/i.test(html[nameStart] ?? '')) return { kind: 'other', end: at + 1 };
  let nameEnd = nameStart;
  while (nameEnd < html.length && !/[\s/>]/.test(html[nameEnd] ?? '')) nameEnd += 1;
  const name = html.slice(nameStart, nameEnd).toLowerCase();
  const { end, selfClosing } = tagEnd(html, nameEnd);
  if (closing) return { kind: 'end', name, end };
  if (RAW_TEXT_ELEMENTS.has(name))
    return { kind: 'start', name, selfClosing, empty: true, end: rawTextEnd(html, name, end) };
  return { kind: 'start', name, selfClosing, empty: false, end };
}

/** Just past the `>` that ends a tag's attributes (a quoted value may hold `>`). */
function tagEnd(html: string, from: number): { end: number; selfClosing: boolean } {
  let afterEquals = false;
  for (let index = from; index < html.length; index += 1) {
    const char = html[index];
    if (char === '>') return { end: index + 1, selfClosing: html[index - 1] === '/' };
    if (afterEquals && (char === '"' || char === "'")) {
      index = endOf(html, char, index + 1) - 1;
      afterEquals = false;
    } else if (char === '=') afterEquals = true;
    else if (char !== undefined && !/\s/.test(char)) afterEquals = false;
  }
  return { end: html.length, selfClosing: false };
}

/** Just past the end tag of a raw-text element (its content holds no tags), or the end of the page. */
function rawTextEnd(html: string, name: string, from: number): number {
  const closing = new RegExp(`</${name}[\\s/>]`, 'gi');
  closing.lastIndex = from;
  const match = closing.exec(html);
  return match ? endOf(html, '>', match.index) : html.length;
}

/** Just past the next `marker` at or after `from`, or the end of the page. */
function endOf(html: string, marker: string, from: number): number {
  const found = html.indexOf(marker, from);
  return found === -1 ? html.length : found + marker.length;
}
