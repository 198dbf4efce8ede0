import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * Test files that spawn processes (the built `cody`, tmux, `cody serve`, Chromium), change the process (umask)
 * or run long: in forked workers. Everything else is in-process unit work and shares
 * threads without isolation (see DECISIONS.md, "The test command under 4 minutes").
 */
const PROCESS_FILES = [
  'tests/e2e/**/*.test.ts',
  'tests/pty/**/*.test.ts',
  'tests/torture/**/*.test.ts',
  'tests/web/**/*.test.ts',
];
/** In-process files that still need a process of their own: `process.umask()` is refused in threads. */
const NEEDS_FORK = ['tests/unit/core/rollout/lock-mode.test.ts'];

/** Longest first: the torture files, then the e2e, pty and browser files, then the rest, so no long file starts last. */
const FIRST = ['tests/torture/', 'tests/e2e/', 'tests/pty/', 'tests/web/'];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification): number => {
      const index = FIRST.findIndex((folder) => file.moduleId.includes(`/${folder}`));
      return index === -1 ? FIRST.length : index;
    };
    return sorted
      .map((file, index) => ({ file, index }))
      .sort((a, b) => rank(a.file) - rank(b.file) || a.index - b.index)
      .map(({ file }) => file);
  }
}

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores, three files at a time: many process files spend most of their time waiting (a kill at a
    // random moment, a retry-after, a screen that has not changed yet, a browser), which left a core
    // idle with two; a third file fills it (see DECISIONS.md, "The test command under 4 minutes").
    maxWorkers: 3,
    unstubEnvs: true,
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'process',
          include: [...PROCESS_FILES, ...NEEDS_FORK],
          pool: 'forks',
          // One retry for the files that drive whole processes, terminals and a browser: on two cores with
          // three files at a time a few of them still miss a timing window now and then (DECISIONS.md,
          // "Figures of the issue 36 stop"). A stop-gap, not a licence: each such test is to be made
          // deterministic; the unit project gets none.
          retry: 1,
          // Each fork imports the test helpers and src once for all the files it runs, not once per file.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/**/*.test.ts', 'src/**/*.test.ts'],
          exclude: [...PROCESS_FILES, ...NEEDS_FORK],
          pool: 'threads',
          isolate: false,
        },
      },
    ],
  },
});
