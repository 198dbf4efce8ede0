/**
 * The only writer of rollout files. Appends one whole line per write and fsyncs it before resolving,
 * so a crash loses at most the line being written — and that one is repaired on the next append.
 */
import * as fs from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import type { ResponseItem } from '../../protocol/index.js';
import { errorMessage } from '../errors.js';
import { RolloutWriteError } from '../errors.js';
import {
  type CompactedPayload,
  type EventPayload,
  type RolloutLine,
  type SessionMetaPayload,
  serializeResponseItem,
  type TurnContextPayload,
} from './schema.js';

/** The few file-system calls the recorder makes; tests wrap them to inject failures. */
export interface RecorderFileSystem {
  open(path: string, flags: string, mode?: number): Promise<FileHandle>;
  writeFile(path: string, data: string | Uint8Array, options?: { mode?: number }): Promise<void>;
}

export interface RecorderOptions {
  fileSystem?: RecorderFileSystem;
  now?: () => Date;
}

/** Rollouts may hold secrets the person pasted: owner-only. */
const FILE_MODE = 0o600;

export class RolloutRecorder {
  private readonly filePath: string;
  private readonly handle: FileHandle;
  private readonly now: () => Date;
  private readonly fileSystem: RecorderFileSystem;
  private size: number;
  private tailChecked: boolean;

  private constructor(
    filePath: string,
    handle: FileHandle,
    size: number,
    options: RecorderOptions,
    tailChecked: boolean,
  ) {
    this.filePath = filePath;
    this.handle = handle;
    this.size = size;
    this.now = options.now ?? (() => new Date());
    this.fileSystem = options.fileSystem ?? fs;
    this.tailChecked = tailChecked;
  }

  /** Creates a new rollout (fails if it exists) whose first line is the session_meta. */
  static async create(
    filePath: string,
    meta: Omit<SessionMetaPayload, 'timestamp'> & { timestamp?: string },
    options: RecorderOptions = {},
  ): Promise<RolloutRecorder> {
    const fileSystem = options.fileSystem ?? fs;
    let handle: FileHandle;
    try {
      handle = await fileSystem.open(filePath, 'wx', FILE_MODE);
    } catch (error) {
      throw new RolloutWriteError(filePath, errorMessage(error), { cause: error });
    }
    const recorder = new RolloutRecorder(filePath, handle, 0, options, true);
    const timestamp = meta.timestamp ?? recorder.now().toISOString();
    await recorder.appendLine('session_meta', { ...meta, timestamp });
    return recorder;
  }

  /** Opens an existing rollout for appending. */
  static async open(filePath: string, options: RecorderOptions = {}): Promise<RolloutRecorder> {
    const fileSystem = options.fileSystem ?? fs;
    let handle: FileHandle;
    try {
      handle = await fileSystem.open(filePath, 'r+');
    } catch (error) {
      throw new RolloutWriteError(filePath, errorMessage(error), { cause: error });
    }
    const { size } = await handle.stat();
    return new RolloutRecorder(filePath, handle, size, options, false);
  }

  async appendItem(item: ResponseItem): Promise<void> {
    await this.appendLine('response_item', serializeResponseItem(item));
  }

  async appendItems(items: readonly ResponseItem[]): Promise<void> {
    for (const item of items) await this.appendItem(item);
  }

  async appendTurnContext(payload: TurnContextPayload): Promise<void> {
    await this.appendLine('turn_context', payload);
  }

  async appendCompacted(payload: CompactedPayload): Promise<void> {
    await this.appendLine('compacted', {
      ...payload,
      ...(payload.replacement_history
        ? { replacement_history: payload.replacement_history.map(serializeResponseItem) }
        : {}),
    });
  }

  async appendEvent(payload: EventPayload): Promise<void> {
    await this.appendLine('event_msg', payload);
  }

  async close(): Promise<void> {
    await this.handle.close();
  }

  /** One write of one whole line, then fsync. On failure the file is cut back to where it was. */
  private async appendLine(type: RolloutLine['type'], payload: unknown): Promise<void> {
    if (!this.tailChecked) await this.repairTornTail();
    const line: RolloutLine = { timestamp: this.now().toISOString(), type, payload };
    const bytes = Buffer.from(`${JSON.stringify(line)}\n`, 'utf8');
    const before = this.size;
    try {
      const { bytesWritten } = await this.handle.write(bytes, 0, bytes.length, before);
      if (bytesWritten !== bytes.length) {
        throw new Error(`short write (${bytesWritten} of ${bytes.length} bytes)`);
      }
      await this.handle.sync();
      this.size = before + bytes.length;
    } catch (error) {
      await this.handle.truncate(before).catch(() => undefined);
      throw new RolloutWriteError(this.filePath, describeWriteError(error), { cause: error });
    }
  }

  /**
   * A last line without its newline is the remains of an interrupted write. Its bytes go to a sidecar
   * file (nothing silently lost) and the rollout is cut back to the last complete line.
   */
  private async repairTornTail(): Promise<void> {
    this.tailChecked = true;
    if (this.size === 0) return;
    const probe = Math.min(this.size, 1 << 20);
    const buffer = Buffer.alloc(probe);
    await this.handle.read(buffer, 0, probe, this.size - probe);
    if (buffer[probe - 1] === 0x0a) return;
    const lastNewline = buffer.lastIndexOf(0x0a);
    if (lastNewline < 0 && probe < this.size) return; // a single line longer than the probe: leave it alone
    const keep = this.size - probe + lastNewline + 1;
    const torn = buffer.subarray(lastNewline + 1);
    const sidecar = `${this.filePath}.torn-${this.now().toISOString().replace(/[:.]/g, '-')}`;
    try {
      await this.fileSystem.writeFile(sidecar, torn, { mode: FILE_MODE });
      await this.handle.truncate(keep);
      await this.handle.sync();
      this.size = keep;
    } catch (error) {
      throw new RolloutWriteError(
        this.filePath,
        `could not set aside its incomplete last line: ${errorMessage(error)}`,
        {
          cause: error,
        },
      );
    }
  }
}

function describeWriteError(error: unknown): string {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  switch (code) {
    case 'ENOSPC':
      return 'the disk is full';
    case 'EROFS':
      return 'the file system is read-only';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    default:
      return errorMessage(error);
  }
}
