/**
 * How every `cody` command ends on SIGINT, SIGTERM or SIGHUP (issue 7.4): within about two seconds,
 * whatever it is doing. A command that handles the signal itself (`cody chat` aborts its turn, and
 * the engine records the turn as interrupted) gets {@link GRACE_MS} to finish; one that does not is
 * ended at once, the way Node would without any handler. A second signal always ends the process at
 * once. The exit code is 128 + the signal's number (130, 143, 129), also when the command itself
 * returned "interrupted".
 *
 * Installing a handler matters because libraries do too: ora's signal-exit keeps the process alive
 * when it is not the only listener, so without this a SIGTERM could be swallowed for good.
 */

/** How long a command that listens for the signal has to record where it stopped. */
export const GRACE_MS = 1_500;

const SIGNAL_NUMBERS = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 } as const;
type HandledSignal = keyof typeof SIGNAL_NUMBERS;

let received: HandledSignal | undefined;
let installed = false;

/** The exit code for a process ended by `signal`. */
export function signalExitCode(signal: HandledSignal): number {
  return 128 + SIGNAL_NUMBERS[signal];
}

/** The signal that asked this process to stop, if one did. */
export function receivedSignal(): HandledSignal | undefined {
  return received;
}

/**
 * The process's exit code given what the command returned: a command that stopped because of a signal
 * (it returns 130, "interrupted") exits as that signal says, so `timeout` and shells see 143 for SIGTERM.
 */
export function exitCodeAfterSignal(code: number): number {
  if (received === undefined) return code;
  return code === 130 ? signalExitCode(received) : code;
}

function onSignal(signal: HandledSignal): void {
  const first = received === undefined;
  received ??= signal;
  const code = signalExitCode(signal);
  // Only this handler listens (or it is the second signal): nothing will stop the command gracefully.
  if (!first || process.listenerCount(signal) <= 1) {
    process.exit(code);
  }
  setTimeout(() => process.exit(code), GRACE_MS).unref();
}

/** Installs the handlers once per process (bin/cody.js calls it; in-process tests do not). */
export function installSignalHandling(): void {
  if (installed) return;
  installed = true;
  for (const signal of Object.keys(SIGNAL_NUMBERS) as HandledSignal[]) process.on(signal, onSignal);
}
