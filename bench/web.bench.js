/**
 * The web page's first load: the bytes of dist/web's files raw and gzipped against the budget
 * (≤ 150 KB of JavaScript gzipped), and what each package adds to app.js (minified bytes, from a
 * metafile build with the same options as scripts/bundle-web.js).
 * Run after `npm run build`: node bench/web.bench.js
 */
import { build } from 'esbuild';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const root = join(import.meta.dirname, '..');
const web = join(root, 'dist', 'web');
const BUDGET_JS_GZIP = 150 * 1024;

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
let jsGzip = 0;
console.log('file         raw        gzip');
for (const name of ['index.html', 'app.js', 'app.css']) {
  const bytes = await readFile(join(web, name));
  const gzip = gzipSync(bytes, { level: 9 }).length;
  if (name.endsWith('.js')) jsGzip += gzip;
  console.log(`${name.padEnd(12)} ${kb(bytes.length).padStart(9)} ${kb(gzip).padStart(9)}`);
}
console.log(
  `JavaScript gzipped: ${kb(jsGzip)} of a ${kb(BUDGET_JS_GZIP)} budget: ${jsGzip <= BUDGET_JS_GZIP ? 'ok' : 'OVER'}`,
);

const result = await build({
  absWorkingDir: root,
  entryPoints: { app: 'src/web/main.tsx' },
  bundle: true,
  write: false,
  outdir: join(root, '.bench-tmp', 'web'),
  format: 'esm',
  platform: 'browser',
  target: ['chrome110', 'firefox110', 'safari16'],
  minify: true,
  legalComments: 'none',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  tsconfig: 'src/web/tsconfig.json',
  metafile: true,
  logLevel: 'warning',
});
const output = Object.entries(result.metafile.outputs).find(([file]) => file.endsWith('app.js'))?.[1];
const byPackage = new Map();
for (const [input, { bytesInOutput }] of Object.entries(output?.inputs ?? {})) {
  const name = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? 'src/web (the page)';
  byPackage.set(name, (byPackage.get(name) ?? 0) + bytesInOutput);
}
console.log('\napp.js by package (minified, before gzip)');
for (const [name, bytes] of [...byPackage].sort((a, b) => b[1] - a[1])) {
  console.log(`${name.padEnd(24)} ${kb(bytes).padStart(9)}`);
}
