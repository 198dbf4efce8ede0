/** The list cache never makes `cody list` wrong: changed, deleted and garbled entries are re-read. */
import { appendFile, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConversationManager } from '../../../../src/core/store/conversation-manager.js';
import { ensureCodyHome, resolveCodyPaths, type CodyPaths } from '../../../../src/core/config/paths.js';
import { writeTitle } from '../../../../src/core/store/conversation-titles.js';
import { LIST_CACHE_FILE } from '../../../../src/core/rollout/list-cache.js';

describe('list cache', () => {
  let home: string;
  let paths: CodyPaths;
  let manager: ConversationManager;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'cody-list-cache-'));
    paths = resolveCodyPaths({ CODY_HOME: home });
    await ensureCodyHome(paths);
    manager = new ConversationManager(paths, { cliVersion: 'test' });
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  const create = async (): Promise<string> =>
    (
      await manager.newConversation({
        provider: 'openai',
        api: 'openai-chat',
        model: 'gpt-4.1-mini',
        cwd: '/w',
      })
    ).id;

  const turnComplete = (count: number, preview: string): string =>
    `${JSON.stringify({
      timestamp: '2027-01-01T00:00:00.000Z',
      type: 'event_msg',
      payload: {
        type: 'turn_complete',
        turn_id: 't',
        message_count: count,
        compaction_count: 0,
        first_user_message: preview,
      },
    })}\n`;

  /** The cache's rows: [id, size, mtimeMs, provider, api, model, createdAt, updatedAt, compactions, …]. */
  const readRows = async (): Promise<unknown[][]> => {
    const cache = JSON.parse(await readFile(join(paths.conversationsDir, LIST_CACHE_FILE), 'utf8')) as {
      version: number;
      rows: unknown[][];
    };
    expect(cache.version).toBe(5);
    return cache.rows;
  };

  it('is written on the first listing and used while files are unchanged', async () => {
    const id = await create();
    const [listed] = await manager.listConversations();
    const rows = await readRows();
    expect(rows.map((row) => row[0])).toEqual([id]);
    // Keyed by the file as it is, so the next listing takes the entry without reading the file.
    const { size, mtimeMs } = await stat(manager.rolloutPath(id));
    expect(rows[0]?.slice(0, 6)).toEqual([id, size, mtimeMs, 'openai', 'openai-chat', 'gpt-4.1-mini']);
    // The file is not read again: a cached entry that says otherwise is what the next listing shows.
    const cachePath = join(paths.conversationsDir, LIST_CACHE_FILE);
    const planted = rows.map((row) => [
      ...row.slice(0, 5),
      'planted-model',
      ...row.slice(6, 12),
      'Planted title',
      ...row.slice(13),
    ]);
    await writeFile(cachePath, JSON.stringify({ version: 5, rows: planted }));
    const again = await manager.listConversations();
    expect(again.map((entry) => entry.id)).toEqual([id]); // the cache file is not a conversation
    // The generated title is cached too: a listing makes none for an unchanged file.
    expect(again[0]).toEqual({ ...listed, model: 'planted-model', title: 'Planted title' });
  });

  it('re-reads a conversation that changed and drops one that was deleted', async () => {
    const kept = await create();
    const removed = await create();
    await manager.listConversations();
    await appendFile(manager.rolloutPath(kept), turnComplete(4, 'after the cache'));
    await manager.deleteConversation(removed);
    const listed = await manager.listConversations();
    expect(listed.map((entry) => entry.id)).toEqual([kept]);
    expect(listed[0]).toMatchObject({
      messageCount: 4,
      preview: 'after the cache',
      updatedAt: '2027-01-01T00:00:00.000Z',
    });
  });

  it('ignores a garbled cache, and garbled entries, and rebuilds it', async () => {
    const id = await create();
    await appendFile(manager.rolloutPath(id), turnComplete(2, 'real preview'));
    const cachePath = join(paths.conversationsDir, LIST_CACHE_FILE);
    await writeFile(cachePath, '{not json');
    expect((await manager.listConversations())[0]).toMatchObject({ id, messageCount: 2 });
    const { size, mtimeMs } = await stat(manager.rolloutPath(id));
    // A row of the right file with a wrong type, and a short row: both ignored, the file read again.
    const wrongType = [
      id,
      size,
      mtimeMs,
      7,
      'openai-chat',
      'm',
      'c',
      'u',
      0,
      9,
      'cached',
      null,
      'T',
      null,
      null,
    ];
    const wrongTitle = [
      id,
      size,
      mtimeMs,
      'openai',
      'openai-chat',
      'm',
      'c',
      'u',
      0,
      9,
      'cached',
      null,
      5,
      null,
      null,
    ];
    for (const rows of [[wrongType], [wrongTitle], [[id, size, mtimeMs]]]) {
      await writeFile(cachePath, JSON.stringify({ version: 5, rows }));
      expect((await manager.listConversations())[0]).toMatchObject({
        id,
        messageCount: 2,
        preview: 'real preview',
      });
    }
    // A version-1 cache (nested objects) is not read, just rebuilt.
    await writeFile(
      cachePath,
      JSON.stringify({
        version: 1,
        entries: { [id]: { size, mtimeMs, summary: { id, provider: 'x', messageCount: 99 } } },
      }),
    );
    expect((await manager.listConversations())[0]).toMatchObject({ id, messageCount: 2 });
    // Nor is a version-2 one (rows without the title).
    const versionTwo = [id, size, mtimeMs, 'openai', 'openai-chat', 'm', 'c', 'u', 0, 99, 'cached', null];
    await writeFile(cachePath, JSON.stringify({ version: 2, rows: [versionTwo] }));
    expect((await manager.listConversations())[0]).toMatchObject({
      id,
      messageCount: 2,
      title: 'Real preview',
    });
    const rebuilt = await readRows();
    expect(rebuilt[0]?.[9]).toBe(2);
    expect(rebuilt[0]?.[12]).toBe('Real preview');
  });

  it('shows a title set with rename over the cached one at once, and keeps the generated one cached', async () => {
    const id = await create();
    await appendFile(manager.rolloutPath(id), turnComplete(2, 'please fix the build.'));
    expect((await manager.listConversations())[0]?.title).toBe('Fix the build');
    await writeTitle(paths.home, id, 'My own name');
    expect((await manager.listConversations())[0]?.title).toBe('My own name');
    expect((await readRows())[0]?.[12]).toBe('Fix the build');
    await writeTitle(paths.home, id, '');
    expect((await manager.listConversations())[0]?.title).toBe('Fix the build');
  });
});
