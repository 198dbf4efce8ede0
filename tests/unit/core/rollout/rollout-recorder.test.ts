/** The recorder on a real temp dir: what lands on disk after each append, failures, and torn tails. */
import { appendFile, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RolloutWriteError } from '../../../../src/core/errors.js';
import { RolloutRecorder } from '../../../../src/core/rollout/recorder.js';
import { readRolloutForResume } from '../../../../src/core/rollout/reader.js';
import {
  assistantMessage,
  errnoError,
  makeTempDir,
  metaLine,
  readLines,
  removeTempDir,
  TEST_ID,
  testMeta,
  userMessage,
  wrappedFileSystem,
} from '../mocked-service.js';

describe('RolloutRecorder', () => {
  let directory: string;
  let filePath: string;
  beforeEach(async () => {
    directory = await makeTempDir();
    filePath = join(directory, `${TEST_ID}.jsonl`);
  });
  afterEach(async () => {
    await removeTempDir(directory);
  });

  it('writes session_meta as line 1, with mode 0600, and refuses to overwrite an existing rollout', async () => {
    const { timestamp: _timestamp, ...meta } = testMeta();
    const recorder = await RolloutRecorder.create(filePath, meta, {
      now: () => new Date('2026-03-04T05:06:07.089Z'),
    });
    await recorder.close();
    const lines = await readLines(filePath);
    expect(lines).toEqual([
      {
        timestamp: '2026-03-04T05:06:07.089Z',
        type: 'session_meta',
        payload: { ...meta, source: 'cli', timestamp: '2026-03-04T05:06:07.089Z' },
      },
    ]);
    expect((await stat(filePath)).mode & 0o777).toBe(0o600);
    await expect(RolloutRecorder.create(filePath, testMeta())).rejects.toThrow(RolloutWriteError);
    expect(await readLines(filePath)).toHaveLength(1);
  });

  it('saves every appended message before the promise resolves, one whole line each', async () => {
    const recorder = await RolloutRecorder.create(filePath, testMeta());
    await recorder.appendItem(userMessage('my name is Alice'));
    expect((await readLines(filePath)).at(-2)).toMatchObject({
      type: 'response_item',
      payload: userMessage('my name is Alice'),
    });
    await recorder.appendItem(assistantMessage('Hello Alice'));
    await recorder.appendTurnContext({ provider: 'openai', api: 'openai-chat', model: 'gpt-4.1-mini' });
    await recorder.appendEvent({ type: 'turn_complete', turn_id: 't1', message_count: 2 });
    await recorder.close();

    const text = await readFile(filePath, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    const lines = await readLines(filePath);
    // The typed message gets Codex's user_message event; Cody's turn_complete is a cody_ item Codex ignores.
    expect(lines.map((entry) => entry.type)).toEqual([
      'session_meta',
      'response_item',
      'event_msg',
      'response_item',
      'turn_context',
      'response_item',
    ]);
    expect(lines[2]?.payload).toEqual({
      type: 'user_message',
      message: 'my name is Alice',
      images: [],
      local_images: [],
      text_elements: [],
    });
    expect(lines[3]?.payload).toEqual(assistantMessage('Hello Alice'));
    expect(lines[4]?.payload).toMatchObject({
      approval_policy: 'untrusted',
      sandbox_policy: { type: 'danger-full-access' },
    });
    expect(lines[5]?.payload).toEqual({ type: 'cody_turn_complete', turn_id: 't1', message_count: 2 });
    for (const entry of lines) expect(entry.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('writes opaque items back verbatim and compacted histories in their on-disk form', async () => {
    const raw = { type: 'web_search_call', status: 'completed', action: { query: 'cody' } };
    const recorder = await RolloutRecorder.create(filePath, testMeta());
    await recorder.appendItems([{ type: 'opaque', raw }, userMessage('after')]);
    await recorder.appendCompacted({
      message: 'summary',
      replacement_history: [{ type: 'opaque', raw }, userMessage('kept')],
      compaction_count: 1,
    });
    await recorder.close();
    const lines = await readLines(filePath);
    expect(lines[1]?.payload).toEqual(raw);
    expect(lines[4]?.payload).toEqual({
      message: 'summary',
      replacement_history: [raw, userMessage('kept')],
      compaction_count: 1,
    });
  });

  it('appends to an existing rollout with open()', async () => {
    await writeFile(filePath, metaLine());
    const recorder = await RolloutRecorder.open(filePath);
    await recorder.appendItem(assistantMessage('again'));
    await recorder.close();
    expect((await readLines(filePath)).map((entry) => entry.type)).toEqual(['session_meta', 'response_item']);
  });

  for (const code of ['ENOSPC', 'EROFS', 'EACCES']) {
    it(`throws RolloutWriteError on ${code} and leaves the file exactly as it was`, async () => {
      const recorder = await RolloutRecorder.create(filePath, testMeta(), {
        fileSystem: wrappedFileSystem({
          write: async (real, buffer, offset, length, position) => {
            // A write that gets part of the line onto the disk before failing: the worst case.
            if (length > 0 && position > 0) {
              await real.write(buffer, offset, Math.floor(length / 2), position);
              throw errnoError(code);
            }
            return real.write(buffer, offset, length, position);
          },
        }),
      });
      const before = await readFile(filePath);
      const failure = await recorder.appendItem(userMessage('lost')).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(RolloutWriteError);
      expect((failure as Error).message).toContain('could not be saved');
      expect((failure as Error).message).toContain(filePath);
      expect(await readFile(filePath)).toEqual(before);
      await recorder.close();
    });
  }

  it('treats a short write as a failure and cuts the partial line off', async () => {
    let failNext = true;
    const recorder = await RolloutRecorder.create(filePath, testMeta(), {
      fileSystem: wrappedFileSystem({
        write: async (real, buffer, offset, length, position) => {
          if (position > 0 && failNext) {
            failNext = false;
            return real.write(buffer, offset, length - 3, position);
          }
          return real.write(buffer, offset, length, position);
        },
      }),
    });
    await expect(recorder.appendItem(assistantMessage('short'))).rejects.toThrow(/short write/);
    expect(await readLines(filePath)).toHaveLength(1);
    await recorder.appendItem(assistantMessage('next one lands'));
    await recorder.close();
    const lines = await readLines(filePath);
    expect(lines.map((entry) => entry.payload)).toContainEqual(assistantMessage('next one lands'));
    expect(lines).toHaveLength(2);
  });

  it('when even the truncate fails, the next append sets the partial line aside first', async () => {
    let fail = true;
    const recorder = await RolloutRecorder.create(filePath, testMeta(), {
      fileSystem: wrappedFileSystem({
        write: async (real, buffer, offset, length, position) => {
          if (position > 0 && fail) {
            await real.write(buffer, offset, 10, position);
            throw errnoError('EIO');
          }
          return real.write(buffer, offset, length, position);
        },
        truncate: async (real, length) => {
          if (fail) throw errnoError('EIO');
          return real.truncate(length);
        },
      }),
    });
    await expect(recorder.appendItem(assistantMessage('lost'))).rejects.toThrow(
      /cutting the partial line off also failed/,
    );
    fail = false;
    await recorder.appendItem(assistantMessage('saved'));
    await recorder.close();
    expect((await readLines(filePath)).map((entry) => entry.payload)).toEqual([
      { ...testMeta(), source: 'cli' },
      assistantMessage('saved'),
    ]);
    expect((await readdir(directory)).filter((name) => name.includes('.torn-'))).toHaveLength(1);
  });

  it('a batch of items is one write: all land or none', async () => {
    let writes = 0;
    const recorder = await RolloutRecorder.create(filePath, testMeta(), {
      fileSystem: wrappedFileSystem({
        write: async (real, buffer, offset, length, position) => {
          writes += 1;
          return real.write(buffer, offset, length, position);
        },
      }),
    });
    await recorder.appendItems([userMessage('one'), assistantMessage('two'), userMessage('three')]);
    await recorder.close();
    expect(writes).toBe(2);
    // Three items and the user_message events of the two typed messages.
    expect(await readLines(filePath)).toHaveLength(6);
  });

  it('sets a torn last line aside in a sidecar and truncates to the last newline before appending', async () => {
    const torn = '{"timestamp":"2026-01-02T03:04:06.000Z","type":"response_item","payload":{"type":"mess';
    await writeFile(
      filePath,
      metaLine() +
        JSON.stringify({ timestamp: 't', type: 'response_item', payload: userMessage('whole') }) +
        '\n' +
        torn,
    );

    const resumed = await readRolloutForResume(filePath);
    expect(resumed.tornTail).toBe(true);
    expect(resumed.warnings).toEqual([
      expect.stringContaining('last line is incomplete (interrupted write)'),
    ]);
    expect(resumed.history).toEqual([userMessage('whole')]);

    const recorder = await RolloutRecorder.open(filePath, {
      now: () => new Date('2026-05-06T07:08:09.010Z'),
    });
    await recorder.appendItem(assistantMessage('after the crash'));
    await recorder.close();

    const lines = await readLines(filePath);
    expect(lines.map((entry) => entry.payload)).toEqual([
      testMeta(),
      userMessage('whole'),
      assistantMessage('after the crash'),
    ]);
    const sidecar = join(directory, `${TEST_ID}.jsonl.torn-2026-05-06T07-08-09-010Z`);
    expect(await readFile(sidecar, 'utf8')).toBe(torn);
    expect((await stat(sidecar)).mode & 0o777).toBe(0o600);
    const again = await readRolloutForResume(filePath);
    expect(again.tornTail).toBe(false);
    expect(again.warnings).toEqual([]);
  });

  it('repairs a torn line longer than one backward read', async () => {
    const torn = `{"timestamp":"x","type":"response_item","payload":{"text":"${'y'.repeat(200_000)}`;
    await writeFile(filePath, metaLine() + torn);
    const recorder = await RolloutRecorder.open(filePath);
    await recorder.appendItem(assistantMessage('next'));
    await recorder.close();
    expect((await readLines(filePath)).map((entry) => entry.type)).toEqual(['session_meta', 'response_item']);
    const sidecars = (await readdir(directory)).filter((name) => name.includes('.torn-'));
    expect(await readFile(join(directory, sidecars[0] ?? ''), 'utf8')).toBe(torn);
  });

  it('finishes a last line that lacks only its newline instead of setting it aside', async () => {
    await writeFile(filePath, metaLine());
    await appendFile(
      filePath,
      JSON.stringify({ timestamp: 't', type: 'response_item', payload: userMessage('complete') }),
    );
    const recorder = await RolloutRecorder.open(filePath);
    await recorder.appendItem(assistantMessage('next'));
    await recorder.close();
    expect((await readLines(filePath)).map((entry) => entry.payload)).toEqual([
      testMeta(),
      userMessage('complete'),
      assistantMessage('next'),
    ]);
    expect((await readdir(directory)).filter((name) => name.includes('.torn-'))).toEqual([]);
  });

  it('refuses to append when the sidecar cannot be written, leaving the torn bytes in place', async () => {
    const torn = '{"timestamp":"x","type":"resp';
    await writeFile(filePath, metaLine() + torn);
    const recorder = await RolloutRecorder.open(filePath, {
      fileSystem: wrappedFileSystem({}, async () => {
        throw errnoError('ENOSPC');
      }),
    });
    await expect(recorder.appendItem(userMessage('x'))).rejects.toThrow(RolloutWriteError);
    await recorder.close();
    expect(await readFile(filePath, 'utf8')).toBe(metaLine() + torn);
  });
});
