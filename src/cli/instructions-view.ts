/** The project instruction files in effect, as `cody status` and `/status` list them. */
import type { ProjectInstructions } from '../core/index.js';
import { sanitizeForTerminal } from './sanitize.js';

export function instructionsLines(instructions: ProjectInstructions): string {
  const refused = instructions.warnings.map((warning) => `  ${sanitizeForTerminal(warning)}`);
  if (instructions.files.length === 0)
    return `Instructions: none (no AGENTS.md in effect)\n${refused.map((line) => `${line}\n`).join('')}`;
  const lines = instructions.files.map(
    (file) =>
      `  ${sanitizeForTerminal(file.path)} (${file.bytes.toLocaleString('en-US')} bytes, ${file.scope})`,
  );
  const cut = instructions.truncated
    ? [`  cut to ${instructions.maxBytes.toLocaleString('en-US')} bytes (projectDocMaxBytes)`]
    : [];
  return `Instructions:\n${[...lines, ...cut, ...refused].join('\n')}\n`;
}
