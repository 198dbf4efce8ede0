/**
 * Bundles the web page (src/web/, Preact + TSX) into dist/web/: app.js and app.css (minified, for
 * browsers, no source maps) and index.html, which `cody serve` serves at `/`. Run by `npm run build`.
 * dist/web/sizes.json records each file's bytes raw and gzipped (bench/web.bench.js reports them).
 */
import { build } from 'esbuild';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const root = join(import.meta.dirname, '..');
const outdir = join(root, 'dist', 'web');
await rm(outdir, { recursive: true, force: true });
await mkdir(outdir, { recursive: true });
await build({
  absWorkingDir: root,
  entryPoints: { app: 'src/web/main.tsx' },
  outdir,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['chrome110', 'firefox110', 'safari16'],
  minify: true,
  sourcemap: false,
  legalComments: 'none',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  tsconfig: 'src/web/tsconfig.json',
  logLevel: 'warning',
});
await copyFile(join(root, 'src', 'web', 'index.html'), join(outdir, 'index.html'));
const sizes = {};
for (const name of ['app.js', 'app.css', 'index.html']) {
  const bytes = await readFile(join(outdir, name));
  sizes[name] = { bytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length };
}
await writeFile(join(outdir, 'sizes.json'), `${JSON.stringify(sizes, null, 1)}\n`);
