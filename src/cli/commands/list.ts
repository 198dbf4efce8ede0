import { ExitCode, UsageError } from '../../core/errors.js';
import { createContext } from '../context.js';
import type { Io } from '../io.js';

/** `cody list`: newest activity first. Reads only each file's head and tail; loads no SDK. */
export async function runList(options: { json?: boolean; limit?: string }, io: Io): Promise<number> {
  let limit: number | undefined;
  if (options.limit !== undefined) {
    limit = Number(options.limit);
    if (!Number.isInteger(limit) || limit < 1)
      throw new UsageError(`--limit must be a positive whole number, not '${options.limit}'.`);
  }
  const context = await createContext(io);
  const conversations = await context.manager.listConversations(limit !== undefined ? { limit } : {});
  if (options.json) {
    io.stdout.write(
      `${JSON.stringify(
        conversations.map(({ filePath: _filePath, ...rest }) => rest),
        null,
        2,
      )}\n`,
    );
    return ExitCode.ok;
  }
  if (conversations.length === 0) {
    io.stdout.write('No saved conversations. Start one with: cody new (or just cody chat "hello")\n');
    return ExitCode.ok;
  }
  const active = await context.manager.getActiveId();
  const rows = conversations.map((conversation) => [
    `${conversation.id === active ? '*' : ' '} ${conversation.id}`,
    `${conversation.provider}/${conversation.model}`,
    formatTime(conversation.createdAt),
    formatTime(conversation.updatedAt),
    conversation.messageCount === undefined ? '–' : String(conversation.messageCount),
    conversation.problem ? `(${conversation.problem})` : (conversation.preview ?? ''),
  ]);
  const header = ['  ID', 'PROVIDER/MODEL', 'CREATED', 'UPDATED', 'MSGS', 'FIRST MESSAGE'];
  const table = [header, ...rows];
  const widths = header.map((_, column) => Math.max(...table.map((row) => (row[column] ?? '').length)));
  const lines = table.map((row) =>
    row
      .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
  // One write: a thousand small writes to a pipe cost more than the listing itself.
  io.stdout.write(`${lines.join('\n')}\n`);
  return ExitCode.ok;
}

/** Local time, minute precision: what a person scanning the list needs. */
export function formatTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const pad = (value: number): string => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
