/**
 * Every turn that took a ghost snapshot ends with its change set (`cody_turn_changes`), through the
 * session's turn loop with the real tool runtime on a scratch git work tree: an edit records exactly the
 * edited path, a turn that only ran `ls -la` records an empty set (so it is no turn with changes), and
 * an edit the person makes between turns is in neither turn's set.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConversationManager } from '../../../../src/core/store/conversation-manager.js';
import { ensureCodyHome, resolveCodyPaths } from '../../../../src/core/config/paths.js';
import { Session } from '../../../../src/core/conversation/session.js';
import { startConversation } from '../../../../src/core/conversation/start-conversation.js';
import { createToolRuntime } from '../../../../src/core/tools/runtime.js';
import { readTurnChanges, turnChangeSets, withChanges } from '../../../../src/core/undo/turn-snapshots.js';
import type {
  FunctionCallItem,
  ModelClient,
  ModelRequest,
  StreamEvent,
} from '../../../../src/protocol/index.js';

/** Each turn: one call, then a reply. */
class OneCallClient implements ModelClient {
  readonly api = 'openai-chat' as const;
  readonly model = 'gpt-4.1-mini';
  private requests = 0;
  constructor(private readonly calls: FunctionCallItem[]) {}
  async *stream(_request: ModelRequest): AsyncGenerator<StreamEvent> {
    const index = this.requests;
    this.requests += 1;
    const item = index % 2 === 0 ? this.calls[index / 2] : undefined;
    if (item) {
      yield { type: 'item', item };
      yield { type: 'finish', reason: 'tool-calls' };
      return;
    }
    yield {
      type: 'item',
      item: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'ok' }] },
    };
    yield { type: 'finish', reason: 'stop' };
  }
}

const call = (name: string, id: string, args: Record<string, unknown>): FunctionCallItem => ({
  type: 'function_call',
  name,
  arguments: JSON.stringify(args),
  call_id: id,
});

describe('a turn records its change set', () => {
  let home: string;
  let work: string;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'cody-changes-home-'));
    work = await realpath(await mkdtemp(join(tmpdir(), 'cody-changes-work-')));
    const git = (...args: string[]): void => {
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
        cwd: work,
        stdio: 'ignore',
      });
    };
    git('init', '-q');
    await writeFile(join(work, 'a.txt'), 'alpha\n');
    await writeFile(join(work, 'app.js'), 'app\n');
    git('add', '.');
    git('commit', '-qm', 'init');
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
    await rm(work, { recursive: true, force: true });
  });

  it('an edit, an ls and a hand edit between turns', async () => {
    const paths = resolveCodyPaths({ CODY_HOME: home });
    await ensureCodyHome(paths);
    const manager = new ConversationManager(paths, { cliVersion: 'test' });
    const id = await startConversation(manager, {}, { cwd: work });
    const client = new OneCallClient([
      call('edit_file', 'c1', { path: 'a.txt', old_text: 'alpha', new_text: 'ALPHA' }),
      call('shell', 'c2', { command: 'ls -la' }),
    ]);
    const session = await Session.open({
      manager,
      conversationId: id,
      config: {},
      env: {},
      cwd: work,
      clientFactory: () => Promise.resolve(client),
      tools: createToolRuntime({ cwd: work, policy: 'full-auto', sandbox: { enabled: false } }),
    });
    for await (const event of session.submit('edit')) void event;
    // The person's edit, between the turns.
    await writeFile(join(work, 'app.js'), 'app\nmine\n');
    for await (const event of session.submit('list')) void event;

    const file = manager.rolloutPath(id);
    const records = [...(await readTurnChanges(file)).values()];
    expect(records.map((record) => record.files)).toEqual([[{ status: 'modified', path: 'a.txt' }], []]);
    const lines = (await readFile(file, 'utf8'))
      .split('\n')
      .filter((line) => line.includes('cody_turn_changes'));
    expect(lines).toHaveLength(2);
    const history = (await manager.resumeConversation(id)).history;
    const sets = await turnChangeSets(work, history, await readTurnChanges(file));
    expect(sets.map((set) => set.turn)).toEqual([1, 2]);
    expect(withChanges(sets).map((set) => set.turn)).toEqual([1]);
  });
});
