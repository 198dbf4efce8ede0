import { UsageError } from '../../core/index.js';
import { ExitCode } from '../exit-codes.js';
import { createContext } from '../context.js';
import type { Io } from '../io.js';
import { sanitizeForTerminal } from '../sanitize.js';

export interface ExportOptions {
  id?: string | undefined;
  format: 'md' | 'json' | 'html';
  redact?: boolean;
}

/** `cody export [id] --format md|json|html [--redact]`: the whole conversation, to stdout. */
export async function runExport(options: ExportOptions, io: Io): Promise<number> {
  const context = await createContext(io, { create: false });
  const id = options.id ? await context.cody.resolve(options.id) : await context.cody.active();
  if (id === undefined)
    throw new UsageError('No active conversation: give an id (see cody list) or start one with cody new.');
  const warnings: string[] = [];
  const text = await context.cody.export(id, options.format, {
    redact: options.redact === true,
    onWarning: (warning) => warnings.push(warning),
  });
  // Exported text keeps control characters for files and pipes; a terminal shows them escaped.
  const write = (text: string): void => {
    io.stdout.write(io.stdout.isTTY === true ? sanitizeForTerminal(text) : text);
  };
  write(text);
  for (const warning of warnings) io.stderr.write(`warning: ${warning}\n`);
  return ExitCode.ok;
}
