/**
 * The nesting pre-scan agrees with the DOM the converter builds (linkedom): what nests (unclosed elements,
 * `<div/>`, stray end tags), what does not (void elements, `/>` in SVG, tags inside comments, scripts
 * and other raw text, quoted `>` in attributes, elements whose end tag may be left out), and it stops
 * counting once a page is over the limit.
 */
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { htmlNestingDepth } from '../../../../src/core/tools/web-page-depth.js';

interface Tree {
  children: ArrayLike<Tree>;
}

/** The depth of linkedom's tree, its root element counted as 1. */
function domDepth(html: string): number {
  const { document } = parseHTML(html);
  let deepest = 0;
  const pending: Array<[Tree, number]> = [[document.documentElement as Tree, 1]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [element, depth] = next;
    deepest = Math.max(deepest, depth);
    for (const child of Array.from(element.children)) pending.push([child, depth + 1]);
  }
  return deepest;
}

const page = (body: string): string => `<html><head><title>t</title></head><body>${body}</body></html>`;
const times = (text: string, count = 50): string => text.repeat(count);

const CASES: Array<[string, string]> = [
  ['unclosed divs', page(times('<div>x'))],
  ['closed divs', page(times('<div>x</div>'))],
  ['nested, then closed', page(`${times('<div>')}${times('</div>')}${times('<span>y</span>')}`)],
  ['upper-case tags', page(`${times('<DIV>x')}${times('</div>')}`)],
  ['<div/> is not self-closing in HTML', page(times('<div/>x'))],
  ['<g/> is self-closing in SVG', page(`<svg>${times('<g/>')}</svg>`)],
  ['void elements', page(times('<br><img src=x><input>x</br>'))],
  ['unclosed paragraphs', page(times('<p>x'))],
  ['a block ends a paragraph', page(times('<p>x<div>y</div><p>z<h2>w</h2>'))],
  ['list items', page(`<ul>${times('<li>x')}</ul>`)],
  ['table cells and rows', page(`<table>${times('<tr><td>x<td>y<th>z')}</table>`)],
  ['options', page(`<select>${times('<option>x')}${times('<optgroup><option>y')}</select>`)],
  ['definitions', page(`<dl>${times('<dt>x<dd>y')}</dl>`)],
  ['an end tag closes what was opened after it', page(`<div>${times('<b>x')}</div>${times('<i>y</i>')}`)],
  ['a stray end tag closes nothing', page(`<div><span>${times('</em><b>')}`)],
  ['a script', page(`<script>${times('<div>')}</script>`)],
  ['a style', page(`<style>${times('<div>')}</style><p>x`)],
  ['a textarea', page(`<textarea>${times('<div>')}</textarea>`)],
  ['a comment', page(`<!--${times('<div>')}-->`)],
  ['CDATA', page(`<![CDATA[${times('<div>')}]]>`)],
  ['a quoted > in an attribute', page(times('<div title="a>b" data-x=\'c>d\'>x'))],
  ['a < that starts no tag', page(times('< div>x 1 < 2'))],
  ['no html or body', times('<div>x')],
];

describe('htmlNestingDepth', () => {
  it.each(CASES)('%s: as deep as the parsed tree', (_name, html) => {
    expect(htmlNestingDepth(html, 10_000)).toBe(domDepth(html));
  });

  it('stops counting just past the limit', () => {
    const deep = times('<div>', 100_000);
    expect(htmlNestingDepth(deep, 256)).toBe(257);
    expect(htmlNestingDepth(times('<div>', 256), 256)).toBe(256);
  });
});
