/**
 * Tab after a slash command: the values its argument takes (`/approval f` → `full-auto`, `/model gpt-4`
 * → the known `gpt-4…` ids, `/export ` → `md json html`). Small lists only: the prompt loads this.
 */
import { apiNamesOf, providerList } from '../core/index.js';
import { APPROVAL_POLICIES } from '../core/index.js';
import { REASONING_LEVELS } from '../protocol/reasoning-levels.js';
import { knownModelIds } from './known-models.js';
import type { Completion } from './tty/line-editor.js';

const EXPORT_FORMATS = ['md', 'json', 'html'];

/** The values of the argument at `index` (0 = the first word after the command), given the words before. */
function valuesOf(command: string, index: number, before: readonly string[]): readonly string[] {
  switch (command) {
    case '/approval':
      return index === 0 ? APPROVAL_POLICIES : [];
    case '/reasoning':
      return index === 0 ? REASONING_LEVELS : [];
    case '/export':
      return index === 0 ? EXPORT_FORMATS : [];
    case '/model':
      return index === 0 ? knownModelIds() : [];
    case '/provider': {
      if (index === 0) return providerList();
      const provider = providerList().find((name) => name === before[0]);
      return index === 1 && provider !== undefined ? apiNamesOf(provider) : [];
    }
    default:
      return [];
  }
}

/** The completion of a slash command's argument under the cursor; undefined when it has none. */
export function completeSlashArgument(before: string): Completion | undefined {
  const match = /^(\/\S+)\s+((?:\S+\s+)*)(\S*)$/.exec(before);
  if (!match) return undefined;
  const [, command = '', earlier = '', typed = ''] = match;
  const words = earlier.split(/\s+/).filter((word) => word !== '');
  const values = valuesOf(command, words.length, words);
  if (values.length === 0) return undefined;
  return {
    start: before.length - typed.length,
    options: values.filter((value) => value.startsWith(typed)),
  };
}
