/** `!command` in the REPL: the person runs a shell command; its output can be handed to the model. */
import { spawn } from 'node:child_process';
import type { ChalkInstance } from 'chalk';
import { sanitizeForTerminal } from './sanitize.js';
import type { RawTerminal } from './tty/terminal.js';

const MAX_OUTPUT = 64 * 1024;

/** Runs the command; returns the message to send when the person says so. */
export async function runBang(
  command: string,
  cwd: string,
  terminal: RawTerminal,
  color: ChalkInstance,
): Promise<string | undefined> {
  if (command.trim() === '') return undefined;
  const write = (text: string): void => terminal.write(text.replace(/\n/g, '\r\n'));
  let output = '';
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn('bash', ['-c', command], { cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const take = (chunk: Buffer): void => {
      const text = chunk.toString('utf8');
      if (output.length < MAX_OUTPUT) output += text;
      write(sanitizeForTerminal(text));
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    // Ctrl-C stops the command (its whole process group), not Cody.
    terminal.listen((key) => {
      if (key.name === 'ctrl-c' || key.name === 'escape') {
        try {
          if (child.pid !== undefined) process.kill(-child.pid, 'SIGINT');
        } catch {
          // already gone
        }
      }
    });
    child.on('error', (error) => {
      write(`${error.message}\n`);
      resolve(127);
    });
    child.on('close', (exitCode) => resolve(exitCode));
  });
  terminal.listen(undefined);
  if (!output.endsWith('\n') && output !== '') write('\n');
  write(color.dim(`exit ${code ?? 'signal'} · send the command and its output to the model? [y/N] `));
  const answer = await new Promise<boolean>((resolve) => {
    terminal.listen((key) => resolve(key.name === 'text' && key.text.toLowerCase() === 'y'));
  });
  terminal.listen(undefined);
  write(answer ? 'yes\n' : 'no\n');
  if (!answer) return undefined;
  const shown =
    output.length > MAX_OUTPUT
      ? `${output.slice(0, MAX_OUTPUT)}\n… (cut at ${MAX_OUTPUT / 1024} KiB)`
      : output;
  return `I ran \`${command}\` (exit ${code ?? 'signal'}):\n\n\`\`\`\n${shown.replace(/\n$/, '')}\n\`\`\``;
}
