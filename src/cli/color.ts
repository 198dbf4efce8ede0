/** Colour for what goes to stderr (the REPL, notices), in its own module: the prompt needs no renderer for it. */
import { Chalk, type ChalkInstance } from 'chalk';
import { type Io, useColor } from './io.js';

export function stderrChalk(io: Io): ChalkInstance {
  return new Chalk({ level: useColor(io.stderr, io.env) ? 1 : 0 });
}
