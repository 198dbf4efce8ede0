/**
 * The only writer of rollout files. Each append is one positioned write of whole lines followed by
 * fsync before the promise resolves, so a crash loses at most the line being written; a failed write is
 * cut back off the file, and a torn last line left by a crash is set aside on the next append.
 */
import * as fs from 'node:fs/promises';
import type { ResponseItem } from '../../protocol/index.js';
import { errorMessage } from '../errors.js';
import { createRedactor, redactDeep, type Redactor } from '../redact/index.js';
import { RolloutWriteError } from '../errors.js';
import {
  describeWriteError,
  type RecorderFileHandle,
  type RecorderFileSystem,
  ROLLOUT_FILE_MODE,
} from './recorder-file-system.js';
import { toCodexLines } from './codex-line-writer.js';
import { repairTornTail } from './repair-torn-tail.js';
import {
  type CompactedPayload,
  type EventPayload,
  type RolloutLine,
  type SessionMetaPayload,
  type TurnContextPayload,
} from './schema.js';

export type { RecorderFileHandle, RecorderFileSystem } from './recorder-file-system.js';

export interface RecorderOptions {
  /** Defaults to `node:fs/promises`. */
  fileSystem?: RecorderFileSystem;
  /** Clock for line timestamps and sidecar names. */
  now?: () => Date;
  /** Applied to every string of every line before it is written; default: the built-in key shapes. */
  redact?: Redactor;
}

/**
 * One line to append, before its timestamp is added. The recorder writes it the way Codex reads it (see
 * codex-line-writer.ts): Cody-only events become `cody_*` response items, a typed user message gets its
 * `user_message` event, and turn contexts and token counts get the fields Codex requires.
 */
export type RolloutEntry =
  | { type: 'response_item'; item: ResponseItem }
  | { type: 'turn_context'; payload: TurnContextPayload }
  | { type: 'compacted'; payload: CompactedPayload }
  | { type: 'event_msg'; payload: EventPayload };

export class RolloutRecorder {
  readonly filePath: string;
  private readonly handle: RecorderFileHandle;
  private readonly now: () => Date;
  private readonly fileSystem: RecorderFileSystem;
  private readonly redact: Redactor;
  /** Bytes of complete lines; the next write goes here. */
  private size: number;
  /** Set when the end of the file may hold bytes that are not a complete line. */
  private tailUnchecked: boolean;

  private constructor(filePath: string, handle: RecorderFileHandle, size: number, options: RecorderOptions) {
    this.filePath = filePath;
    this.handle = handle;
    this.size = size;
    this.now = options.now ?? (() => new Date());
    this.fileSystem = options.fileSystem ?? fs;
    this.redact = options.redact ?? createRedactor();
    this.tailUnchecked = size > 0;
  }

  /** Creates a new rollout (mode 0600; fails if the file exists) whose first line is the session_meta. */
  static async create(
    filePath: string,
    meta: Omit<SessionMetaPayload, 'timestamp'> & { timestamp?: string },
    options: RecorderOptions = {},
  ): Promise<RolloutRecorder> {
    const handle = await openOrThrow(filePath, 'wx+', options);
    const recorder = new RolloutRecorder(filePath, handle, 0, options);
    const { timestamp, ...rest } = meta;
    const payload: SessionMetaPayload = {
      ...rest,
      // Codex lists a thread only with a source it shows (`cli`, `vscode`).
      source: rest.source ?? 'cli',
      timestamp: timestamp ?? recorder.now().toISOString(),
    };
    try {
      await recorder.writeLines([{ type: 'session_meta', payload }]);
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw error;
    }
    return recorder;
  }

  /** Opens an existing rollout for appending. Its tail is checked (and repaired) on the first append. */
  static async open(filePath: string, options: RecorderOptions = {}): Promise<RolloutRecorder> {
    const handle = await openOrThrow(filePath, 'r+', options);
    try {
      const { size } = await handle.stat();
      return new RolloutRecorder(filePath, handle, size, options);
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw new RolloutWriteError(filePath, errorMessage(error), { cause: error });
    }
  }

  async appendItem(item: ResponseItem): Promise<void> {
    await this.appendEntries([{ type: 'response_item', item }]);
  }

  /** All the items in one write and one fsync: all of them land, or none. */
  async appendItems(items: readonly ResponseItem[]): Promise<void> {
    await this.appendEntries(items.map((item) => ({ type: 'response_item' as const, item })));
  }

  async appendTurnContext(payload: TurnContextPayload): Promise<void> {
    await this.appendEntries([{ type: 'turn_context', payload }]);
  }

  async appendCompacted(payload: CompactedPayload): Promise<void> {
    await this.appendEntries([{ type: 'compacted', payload }]);
  }

  async appendEvent(payload: EventPayload): Promise<void> {
    await this.appendEntries([{ type: 'event_msg', payload }]);
  }

  /** Several lines of any kind in one write and one fsync: all of them land, or none. */
  async appendEntries(entries: readonly RolloutEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await this.writeLines(entries.flatMap(toCodexLines));
  }

  async close(): Promise<void> {
    await this.handle.close();
  }

  /** One write of whole lines, then fsync. On failure the file is cut back to where it was. */
  private async writeLines(lines: ReadonlyArray<Omit<RolloutLine, 'timestamp'>>): Promise<void> {
    if (this.tailUnchecked) {
      this.size = await repairTornTail(this.filePath, this.handle, this.fileSystem, this.now());
      this.tailUnchecked = false;
    }
    const timestamp = this.now().toISOString();
    const text = lines
      .map(
        (line) =>
          `${JSON.stringify({ timestamp, type: line.type, payload: redactDeep(line.payload, this.redact) })}\n`,
      )
      .join('');
    const bytes = Buffer.from(text, 'utf8');
    const before = this.size;
    try {
      const { bytesWritten } = await this.handle.write(bytes, 0, bytes.length, before);
      if (bytesWritten !== bytes.length) {
        throw new Error(`short write: ${bytesWritten} of ${bytes.length} bytes`);
      }
      await this.handle.sync();
      this.size = before + bytes.length;
    } catch (error) {
      const reason = describeWriteError(error);
      try {
        await this.handle.truncate(before);
        await this.handle.sync();
      } catch (truncateError) {
        // The next append re-checks the end of the file and sets any partial line aside.
        this.tailUnchecked = true;
        throw new RolloutWriteError(
          this.filePath,
          `${reason}; cutting the partial line off also failed (${describeWriteError(truncateError)})`,
          { cause: error },
        );
      }
      throw new RolloutWriteError(this.filePath, reason, { cause: error });
    }
  }
}

async function openOrThrow(
  filePath: string,
  flags: string,
  options: RecorderOptions,
): Promise<RecorderFileHandle> {
  try {
    return await (options.fileSystem ?? fs).open(filePath, flags, ROLLOUT_FILE_MODE);
  } catch (error) {
    throw new RolloutWriteError(filePath, describeWriteError(error), { cause: error });
  }
}
