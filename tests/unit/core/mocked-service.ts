/** Shared set-up for the rollout tests: real temp directories, rollout lines, and wrapped file systems. */
import * as fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MessageItem, ResponseItem } from '../../../src/protocol/index.js';
import type {
  RecorderFileHandle,
  RecorderFileSystem,
} from '../../../src/core/rollout/recorder-file-system.js';
import type { SessionMetaPayload } from '../../../src/core/rollout/schema.js';

export const CODEX_ROLLOUT_DIR = join(import.meta.dirname, '..', '..', 'fixtures', 'codex-rollouts');

/** A fresh directory under the OS temp dir; remove it with `removeTempDir`. */
export async function makeTempDir(prefix = 'cody-rollout-'): Promise<string> {
  return fs.mkdtemp(join(tmpdir(), prefix));
}

export async function removeTempDir(directory: string): Promise<void> {
  await fs.rm(directory, { recursive: true, force: true });
}

export const TEST_ID = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';

export function testMeta(overrides: Partial<SessionMetaPayload> = {}): SessionMetaPayload {
  return {
    id: TEST_ID,
    timestamp: '2026-01-02T03:04:05.006Z',
    cwd: '/work/project',
    originator: 'cody',
    cli_version: '0.1.0',
    provider: 'openai',
    api: 'openai-chat',
    model: 'gpt-4.1-mini',
    model_provider: 'openai',
    ...overrides,
  };
}

export function userMessage(text: string): MessageItem {
  return { type: 'message', role: 'user', content: [{ type: 'input_text', text }] };
}

export function assistantMessage(text: string): MessageItem {
  return { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] };
}

export function systemMessage(text: string): MessageItem {
  return { type: 'message', role: 'system', content: [{ type: 'input_text', text }] };
}

/** One rollout line as the recorder writes it (with its newline). */
export function line(type: string, payload: unknown, timestamp = '2026-01-02T03:04:05.006Z'): string {
  return `${JSON.stringify({ timestamp, type, payload })}\n`;
}

export function itemLine(item: ResponseItem, timestamp?: string): string {
  return line('response_item', item, timestamp);
}

export function metaLine(overrides: Partial<SessionMetaPayload> = {}): string {
  return line('session_meta', testMeta(overrides));
}

export interface LineOnDisk {
  timestamp: string;
  type: string;
  payload: Record<string, unknown>;
}

/** Every line of a rollout file, parsed (a torn last line makes this throw, on purpose). */
export async function readLines(filePath: string): Promise<LineOnDisk[]> {
  const text = await fs.readFile(filePath, 'utf8');
  return text
    .split('\n')
    .filter((entry) => entry !== '')
    .map((entry) => JSON.parse(entry) as LineOnDisk);
}

export function errnoError(code: string, message = code): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${message}`), { code });
}

/** Overrides for some handle calls; the rest go to the real handle. */
export type HandleOverrides = Partial<{
  [K in keyof RecorderFileHandle]: (
    real: RecorderFileHandle,
    ...args: Parameters<RecorderFileHandle[K]>
  ) => ReturnType<RecorderFileHandle[K]>;
}>;

/** The real file system, with some calls of every opened handle replaced. */
export function wrappedFileSystem(
  overrides: HandleOverrides,
  writeFile?: RecorderFileSystem['writeFile'],
): RecorderFileSystem {
  return {
    async open(path, flags, mode) {
      const real = await fs.open(path, flags, mode);
      const handle: RecorderFileHandle = {
        write: (buffer, offset, length, position) =>
          overrides.write
            ? overrides.write(real, buffer, offset, length, position)
            : real.write(buffer, offset, length, position),
        read: (buffer, offset, length, position) =>
          overrides.read
            ? overrides.read(real, buffer, offset, length, position)
            : real.read(buffer, offset, length, position),
        sync: () => (overrides.sync ? overrides.sync(real) : real.sync()),
        truncate: (length) => (overrides.truncate ? overrides.truncate(real, length) : real.truncate(length)),
        stat: () => (overrides.stat ? overrides.stat(real) : real.stat()),
        close: () => (overrides.close ? overrides.close(real) : real.close()),
      };
      return handle;
    },
    writeFile: writeFile ?? ((path, data, options) => fs.writeFile(path, data, options)),
  };
}
