/** The list cache never makes `cody list` wrong: changed, deleted and garbled entries are re-read. */
import { appendFile, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConversationManager } from '../../src/core/conversation-manager.js';
import { ensureCodyHome, resolveCodyPaths, type CodyPaths } from '../../src/core/paths.js';
import { LIST_CACHE_FILE } from '../../src/core/rollout/list-cache.js';

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

  it('is written on the first listing and used while files are unchanged', async () => {
    const id = await create();
    await manager.listConversations();
    const cache = JSON.parse(await readFile(join(paths.conversationsDir, LIST_CACHE_FILE), 'utf8')) as {
      entries: Record<string, { size: number; mtimeMs: number; summary: { id: string } }>;
    };
    expect(Object.keys(cache.entries)).toEqual([id]);
    expect(cache.entries[id]?.summary.id).toBe(id);
    // Keyed by the file as it is, so the next listing takes the entry without reading the file.
    const { size, mtimeMs } = await stat(manager.rolloutPath(id));
    expect(cache.entries[id]).toMatchObject({ size, mtimeMs });
    // The cache file is not a conversation.
    expect((await manager.listConversations()).map((entry) => entry.id)).toEqual([id]);
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
    await writeFile(
      cachePath,
      JSON.stringify({
        version: 1,
        entries: { [id]: { size: 1, mtimeMs: 1, summary: { id, provider: 7 } } },
      }),
    );
    expect((await manager.listConversations())[0]).toMatchObject({
      id,
      messageCount: 2,
      preview: 'real preview',
    });
    const rebuilt = JSON.parse(await readFile(cachePath, 'utf8')) as {
      entries: Record<string, { summary: { messageCount: number } }>;
    };
    expect(rebuilt.entries[id]?.summary.messageCount).toBe(2);
  });
});
