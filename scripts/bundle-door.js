/**
 * The front ends import core through one door, src/core/index.ts (eslint.config.js). esbuild assigns
 * files to chunks by which entry points reach them, following every import of a reached file, used or
 * not: through the door, `cody list` would reach every module core/index.ts re-exports (the engine, the
 * sign-ins, …) and share chunks with them. This plugin takes the door out of the bundle only: a front
 * end's `import { a, type B } from '../core/index.js'` is rewritten, as its file loads, to import `a`
 * straight from the module core/index.ts re-exports it from (type-only names dropped), so each command's
 * chunks hold what it uses, as before the door.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** Name → the absolute path of the module core/index.ts re-exports it from. */
async function doorMap(root) {
  const door = join(root, 'src', 'core', 'index.ts');
  const text = await readFile(door, 'utf8');
  const map = new Map();
  for (const match of text.matchAll(/export\s+(type\s+)?\{([^}]*)\}\s+from\s+'([^']+)'/g)) {
    if (match[1]) continue;
    for (const specifier of match[2].split(',')) {
      const name = specifier.trim();
      if (name === '' || name.startsWith('type ')) continue;
      const [, exported = name] = name.split(/\s+as\s+/);
      map.set(exported.trim(), join(dirname(door), match[3]));
    }
  }
  if (/^export\s+(async\s+)?(function|const|class)/m.test(text))
    throw new Error('core/index.ts must only re-export (scripts/bundle-door.js)');
  return map;
}

/** One rewritten import statement: the door's names grouped by the module that defines each. */
function rewrite(map, specifiers, file) {
  const byModule = new Map();
  for (const specifier of specifiers.split(',')) {
    const name = specifier.trim();
    if (name === '' || name.startsWith('type ')) continue;
    const [imported, local = imported] = name.split(/\s+as\s+/).map((part) => part.trim());
    const module = map.get(imported);
    if (module === undefined) throw new Error(`${file}: core/index.ts does not export ${imported}`);
    byModule.set(module, [
      ...(byModule.get(module) ?? []),
      imported === local ? imported : `${imported} as ${local}`,
    ]);
  }
  return [...byModule]
    .map(([module, names]) => `import { ${names.join(', ')} } from ${JSON.stringify(module)};`)
    .join(' ');
}

export function throughTheDoor(root) {
  return {
    name: 'through-the-door',
    setup(build) {
      let map;
      build.onLoad({ filter: /[\\/]src[\\/](cli|server|acp|mcp-server)[\\/].*\.ts$/ }, async (args) => {
        map ??= await doorMap(root);
        const source = await readFile(args.path, 'utf8');
        const contents = source.replace(
          /import\s+(type\s+)?\{([^}]*)\}\s+from\s+'(?:\.\.\/)+core\/index\.js';/g,
          (_, typeOnly, specifiers) => (typeOnly ? '' : rewrite(map, specifiers, args.path)),
        );
        return { contents, loader: 'ts' };
      });
    },
  };
}
