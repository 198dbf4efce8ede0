/**
 * Where the page worker's script is. Built, it is the `.js` file beside the module that starts it:
 * dist/bundle/web-page-worker.js (an entry of the bundle, scripts/bundle.js) or tsc's dist/src copy. Run
 * from the TypeScript sources (vitest), there is no `.js` to start and Node 20 cannot start a `.ts`
 * worker: the worker is then bundled in memory with esbuild (a devDependency, which the package never
 * reaches) and started from a `data:` URL, once per process.
 */
import type * as Esbuild from 'esbuild';

let fromSources: Promise<URL> | undefined;

export function pageWorkerScript(): Promise<URL> {
  if (!import.meta.url.endsWith('.ts'))
    return Promise.resolve(new URL('./web-page-worker.js', import.meta.url));
  fromSources ??= bundleFromSources();
  return fromSources;
}

async function bundleFromSources(): Promise<URL> {
  // A name esbuild cannot follow, so the bundle never takes esbuild in.
  const esbuildModule = 'esbuild';
  const esbuild = (await import(esbuildModule)) as typeof Esbuild;
  const entry = new URL('./web-page-worker.ts', import.meta.url);
  const built = await esbuild.build({
    entryPoints: [entry.pathname],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'silent',
    // A data: URL has no file to require() Node's built-ins from: the entry's own path stands in.
    banner: {
      js: `import { createRequire as __codyCreateRequire } from 'node:module'; const require = __codyCreateRequire(${JSON.stringify(entry.href)});`,
    },
  });
  const code = built.outputFiles[0]?.text ?? '';
  return new URL(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
}
