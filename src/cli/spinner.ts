/** A one-line spinner on stderr that can be stopped before anything else is written there. */

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export interface Spinner {
  stop(): void;
  readonly running: boolean;
}

/** What the spinner says while the model works: a model that does not reason is not "thinking". */
export function waitingWord(modelReasons: boolean | undefined): string {
  return modelReasons === false ? 'Working…' : 'Thinking…';
}

export function startSpinner(stream: { write(text: string): unknown }, text: string): Spinner {
  let frame = 0;
  let running = true;
  const draw = (): void => {
    stream.write(`\r\u001b[2K\u001b[36m${FRAMES[frame % FRAMES.length] ?? ''}\u001b[39m ${text}`);
    frame += 1;
  };
  draw();
  const timer = setInterval(draw, 80);
  return {
    get running() {
      return running;
    },
    stop() {
      if (!running) return;
      running = false;
      clearInterval(timer);
      stream.write('\r\u001b[2K');
    },
  };
}
