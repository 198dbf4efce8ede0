import { readFileSync } from 'node:fs';

/** The package version, read once from package.json next to dist/. */
export const CLI_VERSION: string = readVersion();

function readVersion(): string {
  // dist/src/cli/version.js in the build, src/cli/version.ts under the test runner.
  for (const relative of ['../../../package.json', '../../package.json']) {
    try {
      const parsed = JSON.parse(readFileSync(new URL(relative, import.meta.url), 'utf8')) as {
        name?: unknown;
        version?: unknown;
      };
      if (parsed.name === 'cody' && typeof parsed.version === 'string') return parsed.version;
    } catch {
      // try the next location
    }
  }
  return '0.0.0';
}
