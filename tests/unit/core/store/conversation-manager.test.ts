/** ConversationManager on a real CODY_HOME: create, resolve, list, resume, delete, and file modes. */
import * as fs from 'node:fs';
import { chmod, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { newConversationId } from '../../../../src/core/store/conversation-id.js';
import { ConversationManager } from '../../../../src/core/store/conversation-manager.js';
import {
  AmbiguousConversationError,
  CorruptRolloutError,
  InvalidConversationIdError,
  StorageError,
  UnknownConversationError,
} from '../../../../src/core/errors.js';
import { type CodyPaths, ensureCodyHome, resolveCodyPaths } from '../../../../src/core/config/paths.js';
import { acquireConversationLock } from '../../../../src/core/rollout/lock.js';
import {
  readConversationSummary,
  type SummaryFileSystem,
} from '../../../../src/core/rollout/summary-reader.js';
import {
  assistantMessage,
  itemLine,
  line,
  makeTempDir,
  metaLine,
  readLines,
  removeTempDir,
  systemMessage,
  userMessage,
} from '../mocked-service.js';

describe('ConversationManager', () => {
  let home: string;
  let paths: CodyPaths;
  let manager: ConversationManager;
  let clock: number;
  beforeEach(async () => {
    home = await makeTempDir('cody-home-');
    paths = resolveCodyPaths({ CODY_HOME: join(home, 'cody') });
    clock = Date.parse('2026-02-01T10:00:00.000Z');
    manager = new ConversationManager(paths, { cliVersion: '9.9.9', now: () => new Date((clock += 1000)) });
  });
  afterEach(async () => {
    await removeTempDir(home);
  });

  const create = (model = 'gpt-4.1-mini') =>
    manager.newConversation({
      provider: 'openai',
      api: 'openai-chat',
      model,
      cwd: '/work/project',
      initialItems: [systemMessage('be brief')],
    });

  /** A rollout as a finished turn leaves it. */
  async function writeRollout(
    id: string,
    created: string,
    updated: string,
    firstMessage: string,
  ): Promise<void> {
    await mkdir(paths.conversationsDir, { recursive: true });
    await writeFile(
      manager.rolloutPath(id),
      metaLine({ id, timestamp: created }) +
        itemLine(userMessage(firstMessage), created) +
        itemLine(assistantMessage('ok'), updated) +
        line(
          'event_msg',
          { type: 'turn_complete', turn_id: 't', message_count: 2, first_user_message: firstMessage },
          updated,
        ),
    );
  }

  it('creates a rollout with session_meta and the initial items, private modes, and makes it active', async () => {
    const { id, filePath } = await create();
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(filePath).toBe(join(paths.conversationsDir, `${id}.jsonl`));
    const lines = await readLines(filePath);
    expect(lines[0]).toMatchObject({
      type: 'session_meta',
      payload: {
        id,
        cwd: '/work/project',
        originator: 'cody',
        cli_version: '9.9.9',
        provider: 'openai',
        api: 'openai-chat',
        model: 'gpt-4.1-mini',
        model_provider: 'openai',
      },
    });
    expect(lines[1]?.payload).toEqual(systemMessage('be brief'));
    expect(await manager.getActiveId()).toBe(id);
    expect((await stat(paths.home)).mode & 0o777).toBe(0o700);
    expect((await stat(paths.conversationsDir)).mode & 0o777).toBe(0o700);
    expect((await stat(filePath)).mode & 0o777).toBe(0o600);
    expect((await stat(paths.activeFile)).mode & 0o777).toBe(0o600);
  });

  it('resumes by id or unique prefix', async () => {
    const { id, filePath } = await create();
    const resumed = await manager.resumeConversation(id.slice(0, 13).toUpperCase());
    expect(resumed).toMatchObject({ id, filePath, history: [systemMessage('be brief')] });
    expect(resumed.meta.id).toBe(id);
  });

  it('resolves exact ids and unique prefixes, and rejects ambiguous, unknown and invalid ones', async () => {
    const a = '01900000-0000-7000-8000-00000000000a';
    const b = '01900000-0000-7000-8000-00000000000b';
    const c = '01910000-0000-7000-8000-00000000000c';
    for (const id of [a, b, c])
      await writeRollout(id, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', id);
    expect(await manager.resolveId(a)).toBe(a);
    expect(await manager.resolveId(a.toUpperCase())).toBe(a);
    await expect(manager.resolveId('01900000-0000-7000-8000-00000000000d')).rejects.toMatchObject({
      message: "Conversation '01900000-0000-7000-8000-00000000000d' not found.",
      kind: 'not-found',
    });
    expect(await manager.resolveId('0191')).toBe(c);
    await expect(manager.resolveId('0190')).rejects.toThrow(AmbiguousConversationError);
    await expect(manager.resolveId('0190')).rejects.toThrow(/matches 2 conversations/);
    await expect(manager.resolveId('0192')).rejects.toThrow(UnknownConversationError);
    // Core names no command: it gives the kind and a hint, and the CLI words the hint.
    await expect(manager.resolveId('0192')).rejects.toMatchObject({
      message: "Conversation '0192' not found.",
      kind: 'not-found',
      hint: 'list-conversations',
    });
    for (const bad of ['../x', '..', 'a/b', '', 'x'.repeat(3), `${a}0`, '/etc/passwd', 'abc\\def']) {
      await expect(manager.resolveId(bad)).rejects.toThrow(InvalidConversationIdError);
    }
  });

  it('lists nothing when there are no conversations, even before CODY_HOME exists', async () => {
    expect(await manager.listConversations()).toEqual([]);
    await expect(manager.resolveId('01900000-0000-7000-8000-00000000000a')).rejects.toThrow(
      UnknownConversationError,
    );
  });

  it('lists every conversation with its metadata, newest activity first, honouring limit', async () => {
    const older = '01900000-0000-7000-8000-000000000001';
    const newer = '01900000-0000-7000-8000-000000000002';
    const middle = '01900000-0000-7000-8000-000000000003';
    await writeRollout(
      older,
      '2026-01-01T00:00:00.000Z',
      '2026-01-05T00:00:00.000Z',
      'written first, used last',
    );
    await writeRollout(newer, '2026-01-03T00:00:00.000Z', '2026-01-03T00:00:00.000Z', 'the newer one');
    await writeRollout(middle, '2026-01-02T00:00:00.000Z', '2026-01-04T00:00:00.000Z', 'in the middle');
    const listed = await manager.listConversations();
    expect(listed.map((summary) => summary.id)).toEqual([older, middle, newer]);
    expect(listed[0]).toEqual({
      id: older,
      provider: 'openai',
      api: 'openai-chat',
      model: 'gpt-4.1-mini',
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-05T00:00:00.000Z',
      messageCount: 2,
      preview: 'written first, used last',
      title: 'Written first, used last',
      compactionCount: 0,
      cwd: '/work/project',
      filePath: manager.rolloutPath(older),
    });
    expect((await manager.listConversations({ limit: 2 })).map((summary) => summary.id)).toEqual([
      older,
      middle,
    ]);
  });

  it('orders conversations with the same last activity by id, newest id first', async () => {
    const at = '2026-01-04T00:00:00.000Z';
    const ids = ['01900000-0000-7000-8000-00000000000b', '01900000-0000-7000-8000-00000000000a'];
    for (const id of [...ids].reverse()) await writeRollout(id, '2026-01-01T00:00:00.000Z', at, id);
    await writeRollout('01900000-0000-7000-8000-000000000001', at, '2026-01-05T00:00:00.000Z', 'later');
    expect((await manager.listConversations()).map((summary) => summary.id)).toEqual([
      '01900000-0000-7000-8000-000000000001',
      ...ids,
    ]);
  });

  it('lists a conversation created by newConversation (no turns yet) with its meta', async () => {
    const { id } = await create('gpt-5');
    expect(await manager.listConversations()).toEqual([
      expect.objectContaining({
        id,
        model: 'gpt-5',
        compactionCount: 0,
        createdAt: '2026-02-01T10:00:01.000Z',
      }),
    ]);
  });

  it('lists corrupt and empty files with a problem instead of failing the whole list', async () => {
    const good = '01900000-0000-7000-8000-000000000001';
    const empty = '01900000-0000-7000-8000-000000000002';
    const corrupt = '01900000-0000-7000-8000-000000000003';
    await writeRollout(good, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', 'fine');
    await writeFile(manager.rolloutPath(empty), '');
    await writeFile(manager.rolloutPath(corrupt), 'garbage\n');
    const listed = await manager.listConversations();
    expect(listed).toHaveLength(3);
    expect(listed.find((summary) => summary.id === good)?.problem).toBeUndefined();
    expect(listed.find((summary) => summary.id === empty)?.problem).toBe('empty file');
    expect(listed.find((summary) => summary.id === corrupt)?.problem).toBe(
      'the first line is not session_meta',
    );
    await expect(manager.resumeConversation(corrupt)).rejects.toThrow(CorruptRolloutError);
  });

  it('reads only the head and tail of each file when listing (a 5 MB middle is never read)', async () => {
    const id = '01900000-0000-7000-8000-000000000001';
    await mkdir(paths.conversationsDir, { recursive: true });
    const middle = itemLine(assistantMessage('m'.repeat(1000))).repeat(5000);
    await writeFile(
      manager.rolloutPath(id),
      metaLine({ id }) +
        itemLine(userMessage('the first question')) +
        middle +
        line('compacted', { message: 's', replacement_history: [], compaction_count: 3 }) +
        line(
          'event_msg',
          { type: 'turn_complete', turn_id: 't', message_count: 5002 },
          '2026-03-03T03:03:03.003Z',
        ),
    );
    let bytesRead = 0;
    const counting: SummaryFileSystem = {
      openSync: (path, flags) => fs.openSync(path, flags),
      fstatSync: (descriptor) => fs.fstatSync(descriptor),
      closeSync: (descriptor) => fs.closeSync(descriptor),
      readSync: (descriptor, buffer, offset, length, position) => {
        const read = fs.readSync(descriptor, buffer, offset, length, position);
        bytesRead += read;
        return read;
      },
    };
    const summary = readConversationSummary(manager.rolloutPath(id), counting);
    expect((await stat(manager.rolloutPath(id))).size).toBeGreaterThan(5_000_000);
    expect(bytesRead).toBeLessThan(64 * 1024);
    expect(summary).toMatchObject({
      preview: 'the first question',
      messageCount: 5002,
      compactionCount: 3,
      updatedAt: '2026-03-03T03:03:03.003Z',
    });
  });

  it('getActiveId ignores a dangling or garbled active file', async () => {
    await ensureCodyHome(paths);
    await writeFile(paths.activeFile, '01900000-0000-7000-8000-000000000009\n');
    expect(await manager.getActiveId()).toBeUndefined();
    await writeFile(paths.activeFile, '../../etc/passwd\n');
    expect(await manager.getActiveId()).toBeUndefined();
    const { id } = await create();
    await manager.setActive(id);
    expect(await readFile(paths.activeFile, 'utf8')).toBe(`${id}\n`);
  });

  it('deletes a conversation with its lock and sidecars, and clears active when it pointed there', async () => {
    const { id, filePath } = await create();
    const { id: other } = await create();
    await manager.setActive(id);
    await writeFile(`${filePath}.torn-2026-01-01T00-00-00-000Z`, 'torn');
    const release = await acquireConversationLock(filePath, { timeoutMs: 0 });
    await release();
    expect(await manager.deleteConversation(id.slice(0, 20))).toBe(id);
    expect((await readdir(paths.conversationsDir)).sort()).toEqual([`${other}.jsonl`]);
    expect(await manager.getActiveId()).toBeUndefined();
    await expect(readFile(paths.activeFile)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(manager.resumeConversation(id)).rejects.toThrow(UnknownConversationError);
    await expect(manager.deleteConversation(id)).rejects.toThrow(UnknownConversationError);
  });

  it('keeps active when deleting another conversation', async () => {
    const { id: first } = await create();
    const { id: second } = await create();
    await manager.deleteConversation(first);
    expect(await manager.getActiveId()).toBe(second);
  });
});

describe('paths and ids', () => {
  let home: string;
  beforeEach(async () => {
    home = await makeTempDir('cody-paths-');
  });
  afterEach(async () => {
    await removeTempDir(home);
  });

  it('resolves CODY_HOME, or ~/.cody when it is unset or blank', () => {
    vi.stubEnv('HOME', home);
    vi.stubEnv('CODY_HOME', '');
    expect(resolveCodyPaths(process.env)).toEqual({
      home: join(home, '.cody'),
      conversationsDir: join(home, '.cody', 'conversations'),
      configFile: join(home, '.cody', 'config.json'),
      activeFile: join(home, '.cody', 'active'),
    });
    vi.stubEnv('CODY_HOME', join(home, 'elsewhere'));
    expect(resolveCodyPaths(process.env).conversationsDir).toBe(join(home, 'elsewhere', 'conversations'));
  });

  it('tightens an existing CODY_HOME to 0700', async () => {
    const paths = resolveCodyPaths({ CODY_HOME: join(home, 'cody') });
    await mkdir(paths.conversationsDir, { recursive: true, mode: 0o755 });
    await chmod(paths.home, 0o755);
    await ensureCodyHome(paths);
    expect((await stat(paths.home)).mode & 0o777).toBe(0o700);
    expect((await stat(paths.conversationsDir)).mode & 0o777).toBe(0o700);
  });

  it('explains a CODY_HOME that cannot be used', async () => {
    await writeFile(join(home, 'file'), 'not a directory');
    const paths = resolveCodyPaths({ CODY_HOME: join(home, 'file') });
    const error = await ensureCodyHome(paths).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StorageError);
    expect((error as Error).message).toContain(join(home, 'file'));
    expect((error as Error).message).toContain('set CODY_HOME');
  });

  it('makes UUIDv7 ids that sort by creation time', () => {
    const ids = [1, 2, 1_000, 1_700_000_000_000, 1_700_000_000_001].map((time) => newConversationId(time));
    for (const id of ids) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
    expect([...ids].sort()).toEqual(ids);
    expect(newConversationId(1_700_000_000_000).startsWith('018bcfe5-6800')).toBe(true);
    expect(new Set(Array.from({ length: 100 }, () => newConversationId(5))).size).toBe(100);
  });
});
