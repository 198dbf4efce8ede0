/**
 * What `npm run build` was built from: a hash of every file the build reads (src/, scripts/, bin/, the
 * package and TypeScript configs, the lock file). The build writes it to dist/.build-stamp as its last step;
 * `npm test` (scripts/checks.js) skips the build when the stamp matches, so a fresh `npm ci` (whose
 * `prepare` just built) is not followed by the same build again. Content, not times: a changed, added or
 * deleted input changes the hash.
 *   node scripts/build-stamp.js          writes the stamp (the build's last step)
 *   import { buildIsFresh } from …       whether dist/ is the build of the files as they are now
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');
const stampFile = join(root, 'dist', '.build-stamp');
const INPUT_DIRECTORIES = ['src', 'scripts', 'bin'];
const INPUT_FILES = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'];

function filesUnder(directory) {
  return readdirSync(directory, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name));
}

/** The hash of the build's inputs as they are now. */
export function inputsHash() {
  const files = [
    ...INPUT_DIRECTORIES.flatMap((directory) => filesUnder(join(root, directory))),
    ...INPUT_FILES.map((file) => join(root, file)),
  ].sort();
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(`${relative(root, file)}\0`);
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** Whether dist/ was built from exactly the inputs there are now. */
export function buildIsFresh() {
  try {
    return readFileSync(stampFile, 'utf8').trim() === inputsHash();
  } catch {
    return false;
  }
}

if (process.argv[1] === import.meta.filename) writeFileSync(stampFile, `${inputsHash()}\n`);
