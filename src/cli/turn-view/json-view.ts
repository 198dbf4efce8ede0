/**
 * The JSON view: `--json` and `--output-format stream-json`. Every event goes to the writer as it comes
 * (stream-json prints it; `--json` sums it up); the end of the turn is the writer's final line, and a
 * person reading stderr is told how it ended in the words of the text views.
 */
import { stderrChalk } from '../color.js';
import type { Io } from '../io.js';
import type { JsonWriter } from '../json-output.js';
import { SILENT_VIEW, type TurnView } from './dispatch.js';
import { failureLines, interruptedLine, paint, type Said } from './wording.js';

export function createJsonView(writer: JsonWriter, io: Io): TurnView {
  const color = stderrChalk(io);
  const end = (error: unknown, said: readonly Said[]): void => {
    writer.finish(error);
    for (const line of said) io.stderr.write(`${paint(line, color)}\n`);
  };
  return {
    ...SILENT_VIEW,
    event: (event) => writer.handle(event),
    interrupted: (error, partialKept) => end(error, [interruptedLine(partialKept)]),
    failed: (error) => end(error, failureLines(error)),
    summary: () => void writer.finish(),
  };
}
