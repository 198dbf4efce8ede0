#!/usr/bin/env node
// CommonJS (bin/package.json says so): an ES module entry costs Node 20 ~10 ms of loader start-up before
// its first line runs, which `cody --version` should not pay. The CLI itself is ES modules (dist/bundle),
// loaded with import().
'use strict';

/**
 * The invocations people wait on most, each with an entry of its own that skips the command-line parser.
 * The listing is CommonJS and is require()d: that spares it Node's ES module loader (~6–15 ms here).
 */
const BARE_ENTRIES = { repl: '../dist/bundle/bare-repl.js', list: '../dist/bundle/bare-list.cjs' };

// Fast path: `cody --version` answers without loading the CLI (start-up is the product's latency).
if (process.argv.length === 3 && (process.argv[2] === '--version' || process.argv[2] === '-V')) {
  const { readFileSync } = require('node:fs');
  const { join } = require('node:path');
  const { version } = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8'));
  process.stdout.write(`${version}\n`);
} else {
  // `cody show | head` closes the pipe early: stop quietly, as other command-line tools do. A command
  // with a listener of its own (`cody chat` records its turn as interrupted first) ends by itself.
  process.stdout.on('error', (error) => {
    if (error.code !== 'EPIPE') throw error;
    if (process.stdout.listenerCount('error') === 1) process.exit(0);
  });
  // Node ≥ 22 keeps compiled code between runs; Node 20 has no such cache.
  require('node:module').enableCompileCache?.();
  void run();
}

async function run() {
  // Bare `cody` (the REPL) and bare `cody list`; anything else goes through the parser (main.js).
  const words = process.argv.slice(2);
  const bare = words.length === 0 ? 'repl' : words.length === 1 && words[0] === 'list' ? 'list' : undefined;
  const file = bare === undefined ? '../dist/bundle/main.js' : BARE_ENTRIES[bare];
  const entry = file.endsWith('.cjs') ? require(file) : await import(file);
  const { installSignalHandling, exitCodeAfterSignal } = entry;
  // SIGINT/SIGTERM/SIGHUP end every command within ~2 s (src/cli/signals.ts).
  installSignalHandling();
  try {
    const running = bare === undefined ? entry.main(process.argv) : entry.runBare();
    process.exitCode = exitCodeAfterSignal(await running);
  } catch (error) {
    process.stderr.write(
      `cody: unexpected error: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exitCode = 70;
  }
  // The command is over and everything it recorded is on disk (each line is fsync'd before it goes on):
  // a handle some library left open (a timer, a paused terminal stream, a keep-alive socket) must not keep
  // the process alive. Unref'd, so a process that can end by itself ends at once.
  setTimeout(() => process.exit(), 500).unref();
}
