import { readTitles } from '../../core/store/index.js';
import { UsageError } from '../../core/errors.js';
import { ExitCode } from '../exit-codes.js';
import { redactDeep } from '../../core/redact/index.js';
import { knownSecretsRedactor } from '../../core/redact/index.js';
import { formatExport } from '../../core/store/index.js';
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
  const id = options.id ? await context.manager.resolveId(options.id) : await context.manager.getActiveId();
  if (id === undefined)
    throw new UsageError('No active conversation: give an id (see cody list) or start one with cody new.');
  let transcript = await context.manager.store.transcript(id);
  if (options.redact)
    transcript = redactDeep(
      transcript,
      await knownSecretsRedactor(context.config.redact ?? [], io.env, context.paths.home),
    );
  const title = readTitles(context.paths.home).get(id);
  // Exported text keeps control characters for files and pipes; a terminal shows them escaped.
  const write = (text: string): void => {
    io.stdout.write(io.stdout.isTTY === true ? sanitizeForTerminal(text) : text);
  };
  write(formatExport(options.format, id, title, transcript));
  for (const warning of transcript.warnings) io.stderr.write(`warning: ${warning}\n`);
  return ExitCode.ok;
}
