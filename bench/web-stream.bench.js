/**
 * A streamed reply rendered chunk by chunk, as the page does: src/web/markdown.tsx re-rendered with the
 * text so far after each of 2,000 chunks, into linkedom's DOM (Preact's real diff, no browser paint).
 * Prints the total and the last 200 renders' median, so a cost that grows with the text shows.
 * Run: node bench/web-stream.bench.js
 */
import { build } from 'esbuild';
import { performance } from 'node:perf_hooks';
import { parseHTML } from 'linkedom';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = join(import.meta.dirname, '..');
const CHUNKS = 2000;
const tmp = join(root, '.bench-tmp', 'web-stream');
await mkdir(tmp, { recursive: true });
const entry = join(tmp, 'entry.tsx');
await writeFile(
  entry,
  `import { render } from 'preact';\nimport { Markdown } from '${join(root, 'src/web/markdown.tsx')}';\n` +
    `export function show(text: string, into: Element) { render(<Markdown text={text} />, into); }\n`,
);
await build({
  absWorkingDir: root,
  entryPoints: [entry],
  bundle: true,
  outfile: join(tmp, 'entry.js'),
  format: 'esm',
  platform: 'neutral',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  tsconfig: 'src/web/tsconfig.json',
  logLevel: 'warning',
});
const { document } = parseHTML('<!doctype html><html><body><div id="root"></div></body></html>');
globalThis.document = document;
const { show } = await import(pathToFileURL(join(tmp, 'entry.js')).href);

/** A reply of paragraphs, lists, code and a table, about 60 KB, cut into CHUNKS equal pieces. */
function reply() {
  const parts = [];
  for (let i = 0; parts.join('').length < 60_000; i += 1) {
    parts.push(
      `## Step ${i}\n\nSome **bold** text with \`code\` and a [link](https://example.com/${i}).\n\n`,
    );
    parts.push(`- item one of ${i}\n- item two with *em*\n\n`);
    parts.push('```ts\n' + `const value${i} = ${i} * 2;\nconsole.log(value${i});\n` + '```\n\n');
    if (i % 5 === 0) parts.push(`| a | b |\n|---|---|\n| ${i} | ${i + 1} |\n\n`);
  }
  return parts.join('');
}

const text = reply();
const size = Math.ceil(text.length / CHUNKS);
const into = document.getElementById('root');
const times = [];
const start = performance.now();
for (let end = size; end < text.length + size; end += size) {
  const before = performance.now();
  show(text.slice(0, Math.min(end, text.length)), into);
  times.push(performance.now() - before);
}
const total = performance.now() - start;
const tail = times.slice(-200).sort((a, b) => a - b);
console.log(`${times.length} renders of a ${(text.length / 1024).toFixed(0)} KB reply`);
console.log(`total ${total.toFixed(0)} ms; last 200 renders median ${tail[100].toFixed(2)} ms`);
await rm(tmp, { recursive: true, force: true });
