/**
 * `/export [md|json|html] [FILE]`: the conversation, redacted, written to `$CODY_HOME/exports/` under a
 * name no earlier export has (never into the work tree, where the next snapshot would pick it up), or to
 * FILE when one is given (never overwritten).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve as resolvePath } from 'node:path';
import { UsageError } from '../core/index.js';
import { EXPORT_FORMATS, type ExportFormat } from '../core/index.js';
import type { CommandContext } from './context.js';

/** How many numbered names (`cody-0123abcd-2.md`, …) are tried before giving up. */
const MAX_SUFFIX = 999;

/** Writes the export and returns its path; a bad format or an existing FILE is a usage error (one line). */
export async function exportConversation(
  context: Pick<CommandContext, 'cody' | 'paths'>,
  id: string,
  argument: string,
  cwd: string,
): Promise<string> {
  const [format = 'md', file] = argument.split(/\s+/).filter((word) => word !== '');
  if (!isFormat(format)) throw new UsageError('Usage: /export [md|json|html] [FILE]');
  const text = await context.cody.export(id, format);
  if (file !== undefined) {
    const target = resolvePath(cwd, file);
    if (!(await writeNew(target, text))) {
      throw new UsageError(`${target} exists; give another file name, or none (/export ${format}).`);
    }
    return target;
  }
  const directory = join(context.paths.home, 'exports');
  await mkdir(directory, { recursive: true, mode: 0o700 });
  for (let suffix = 1; suffix <= MAX_SUFFIX; suffix += 1) {
    const name = `cody-${id.slice(0, 8)}${suffix === 1 ? '' : `-${suffix}`}.${format}`;
    const target = join(directory, name);
    if (await writeNew(target, text)) return target;
  }
  throw new UsageError(`${directory} holds ${MAX_SUFFIX} exports of this conversation; give a file name.`);
}

function isFormat(text: string): text is ExportFormat {
  return (EXPORT_FORMATS as readonly string[]).includes(text);
}

/** Writes a file that must not exist yet (mode 0600); false when it does. */
async function writeNew(path: string, text: string): Promise<boolean> {
  try {
    await writeFile(path, text, { mode: 0o600, flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'EEXIST') return false;
    throw error;
  }
}
