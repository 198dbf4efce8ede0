/** The project instruction files in effect, as `cody status` and `/status` list them. */
import type { ProjectInstructions } from '../core/index.js';
import { sanitizeForTerminal } from './sanitize.js';

export function instructionsLines(instructions: ProjectInstructions): string {
  if (instructions.files.length === 0) return 'Instructions: none (no AGENTS.md in effect)\n';
  const lines = instructions.files.map(
    (file) =>
      `  ${sanitizeForTerminal(file.path)} (${file.bytes.toLocaleString('en-US')} bytes, ${file.scope})`,
  );
  const cut = instructions.truncated
    ? [`  cut to ${instructions.maxBytes.toLocaleString('en-US')} bytes (projectDocMaxBytes)`]
    : [];
  return `Instructions:\n${[...lines, ...cut].join('\n')}\n`;
}
