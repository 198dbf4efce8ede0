/** How tool calls that change something get approved: asked on a terminal, or by an explicit flag. */
import { createInterface } from 'node:readline/promises';
import type { CodyConfig } from '../core/config.js';
import { BUILTIN_TOOL_NAMES, createBuiltinTools } from '../core/tools/builtin-tools.js';
import type { ToolRuntime } from '../core/tools/tool-runtime.js';
import type { Io } from './io.js';

/** Asks the person a question on the terminal and resolves with the answer. */
export type Ask = (question: string) => Promise<string>;

/** A one-off question on a fresh readline interface (for single-turn commands). */
async function askOnce(question: string): Promise<string> {
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await prompt.question(question);
  } finally {
    prompt.close();
  }
}

export function createCliTools(
  io: Io,
  config: CodyConfig,
  options: { autoApprove?: boolean; ask?: Ask },
): ToolRuntime | undefined {
  if (config.tools === false) return undefined;
  let approveAll = options.autoApprove === true;
  return createBuiltinTools({
    cwd: io.cwd,
    approve: async (_call, summary) => {
      if (approveAll) return true;
      if (io.stdin.isTTY !== true) {
        io.stderr.write(`Declined (no terminal to ask; pass --auto-approve to allow): ${summary}\n`);
        return false;
      }
      // Start on a fresh line (the reply may have stopped mid-line), outside the prompt: readline redraws
      // a multi-line prompt by moving up and clearing, which would erase the reply's last line.
      io.stderr.write('\n');
      const answer = (
        await (options.ask ?? askOnce)(`Allow ${summary}? [y]es / [n]o / [a]lways this session: `)
      )
        .trim()
        .toLowerCase();
      if (answer === 'a' || answer === 'always') approveAll = true;
      return approveAll || answer === 'y' || answer === 'yes';
    },
  });
}

export function toolNames(config: CodyConfig): readonly string[] {
  return config.tools === false ? [] : BUILTIN_TOOL_NAMES;
}
