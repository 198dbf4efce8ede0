/**
 * Bundles the CLI (dist/bundle/main.js) and the library entry (dist/bundle/index.js, what `import 'cody'`
 * loads) into dist/bundle/ (one ES module per command path, SDKs included), so a command loads a handful of
 * files instead of hundreds from node_modules and neither needs node_modules at run time. Run by `npm run build` (and so by `prepare`).
 * Dynamic imports stay split: `cody list` never loads the chunks that hold the SDKs, zod or the tokenizer.
 * Bare `cody list` (dist/bundle/bare-list.cjs, with bare-list-config.js for a config file) is a second,
 * unsplit build (CommonJS): one small file instead of ~23 chunks (src/cli/bare-list.ts says why); it shares no module
 * instance with the first build, and is never loaded in the same process as it.
 * dist/bundle/inputs.json maps every output file to the source modules it holds (tests read it to check
 * what a command loaded).
 */
import { build } from 'esbuild';
import { rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { throughTheDoor } from './bundle-door.js';

const root = join(import.meta.dirname, '..');
const outdir = join(root, 'dist', 'bundle');
await rm(outdir, { recursive: true, force: true });
const common = {
  absWorkingDir: root,
  outdir,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: '[name]-[hash]',
  sourcemap: false,
  sourcesContent: false,
  metafile: true,
  logLevel: 'warning',
  legalComments: 'linked',
  // Bundled CommonJS dependencies (commander, proper-lockfile) call require() for Node's built-ins.
  banner: {
    js: "import { createRequire as __codyCreateRequire } from 'node:module'; const require = __codyCreateRequire(import.meta.url);",
  },
};
/** In the bare-list build, `import('./config-schema.js')` loads dist/bundle/bare-list-config.js. */
const configSchemaBesideBareList = {
  name: 'config-schema-beside-bare-list',
  setup(build) {
    build.onResolve({ filter: /\/config-schema\.js$/ }, (args) =>
      args.kind === 'dynamic-import' ? { path: './bare-list-config.js', external: true } : undefined,
    );
  },
};
/**
 * The unsplit builds (bare `cody list`, its config schema) never build a model client, but they reach the
 * providers' registry (provider names for the config), whose definitions import their client modules (and
 * model listing) with `import()`. Unsplit, esbuild would bundle every SDK into them; a definition's
 * imports stay out instead (one executed by mistake fails with this module name).
 */
const noModelClients = {
  name: 'no-model-clients',
  setup(build) {
    build.onResolve({ filter: /.*/ }, (args) =>
      args.kind === 'dynamic-import' && /[\\/]src[\\/]providers[\\/]/.test(args.importer)
        ? { path: 'cody-unsplit-build-has-no-model-clients', external: true }
        : undefined,
    );
  },
};
const results = await Promise.all([
  build({
    ...common,
    // web_fetch's page worker (a worker thread) is started from its own file, beside the chunk that starts it.
    entryPoints: {
      main: 'src/cli/main.ts',
      'bare-repl': 'src/cli/bare-repl.ts',
      index: 'src/index.ts',
      'web-page-worker': 'src/core/tools/web-page-worker.ts',
    },
    splitting: true,
    // What @google/genai imports only for Vertex AI sign-in and its Live API, neither of which Cody uses
    // (scripts/stubs/ says why); a call into either fails with a clear message instead.
    alias: { 'google-auth-library': './scripts/stubs/google-auth-library.js', ws: './scripts/stubs/ws.js' },
    plugins: [throughTheDoor(root)],
  }),
  // Without splitting, a dynamic import is bundled in (wrapped, run only when imported). The config
  // schema (zod, 130 KB) is instead its own file beside bare-list.cjs: loading a 177 KB file cost ~14 ms
  // and a 44 KB one ~6 ms, and only a person with a config file pays for the schema.
  // The listing itself is CommonJS, which the CommonJS launcher require()s: Node 20 then never starts its
  // ES module loader for a bare `cody list` (DECISIONS.md has the figures). The schema stays an ES module,
  // imported only when needed.
  build({
    ...common,
    entryPoints: { 'bare-list': 'src/cli/bare-list.ts' },
    format: 'cjs',
    outExtension: { '.js': '.cjs' },
    banner: {},
    splitting: false,
    plugins: [configSchemaBesideBareList, noModelClients, throughTheDoor(root)],
  }),
  build({
    ...common,
    entryPoints: { 'bare-list-config': 'src/core/config/config-schema.ts' },
    splitting: false,
    plugins: [noModelClients],
  }),
]);
const inputs = {};
for (const result of results) {
  for (const [file, output] of Object.entries(result.metafile.outputs)) {
    if (/\.c?js$/.test(file)) inputs[relative(outdir, join(root, file))] = Object.keys(output.inputs);
  }
}
await writeFile(join(outdir, 'inputs.json'), `${JSON.stringify(inputs, null, 1)}\n`);
