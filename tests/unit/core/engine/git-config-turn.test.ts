/**
 * The issue 36 repro through the engine: under auto-edit, a model's patch to .git/config setting
 * core.fsmonitor asks (it did not), and once approved, the turn's end-of-turn snapshot still runs
 * nothing the config names.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCody, type Cody } from '../../../../src/core/engine/cody.js';
import type { SessionEvent } from '../../../../src/core/conversation/session-events.js';
import type { ModelClient, ModelRequest, StreamEvent } from '../../../../src/protocol/index.js';

const toolCall = (id: string, name: string, args: Record<string, unknown>): StreamEvent[] => [
  { type: 'item', item: { type: 'function_call', name, arguments: JSON.stringify(args), call_id: id } },
  { type: 'finish', reason: 'tool-calls' },
];

class ScriptClient implements ModelClient {
  readonly api = 'openai-chat' as const;
  readonly model = 'gpt-4.1-mini';
  private count = 0;
  constructor(private readonly steps: StreamEvent[][]) {}
  async *stream(_request: ModelRequest): AsyncGenerator<StreamEvent> {
    const step = this.steps[this.count] ?? [];
    this.count += 1;
    yield* step;
  }
}

describe('a model editing .git/config under auto-edit', () => {
  let home: string;
  let work: string;
  let marker: string;
  let cody: Cody;
  beforeEach(async () => {
    home = await realpath(await mkdtemp(join(tmpdir(), 'cody-gitcfg-home-')));
    work = await realpath(await mkdtemp(join(tmpdir(), 'cody-gitcfg-work-')));
    marker = join(home, 'P11');
    execFileSync('git', ['init', '-q', work]);
    await writeFile(join(work, 'app.js'), 'one\n');
    execFileSync(
      'git',
      ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qam', 'i', '--allow-empty'],
      {
        cwd: work,
      },
    );
    const repro = [
      '*** Begin Patch',
      '*** Update File: .git/config',
      '@@',
      ' \tlogallrefupdates = true',
      '+[core]',
      `+\tfsmonitor = "touch ${marker}; echo"`,
      '*** End Patch',
    ].join('\n');
    const client = new ScriptClient([
      toolCall('c1', 'apply_patch', { input: repro }),
      toolCall('c2', 'write_file', { path: 'app.js', content: 'two\n' }),
      [
        {
          type: 'item',
          item: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'done' }] },
        },
        { type: 'finish', reason: 'stop' },
      ],
    ]);
    cody = createCody({
      home,
      env: {},
      cwd: work,
      approvalPolicy: 'auto-edit',
      clientFactory: () => Promise.resolve(client),
    });
  });
  afterEach(async () => {
    await cody.close();
    await rm(home, { recursive: true, force: true });
    await rm(work, { recursive: true, force: true });
  });

  /** Runs the turn, answering the questions with `answer`; returns them and the rollout's text. */
  const turn = async (answer: 'approve' | 'deny') => {
    const conversation = await cody.create({ provider: 'openai', api: 'chat', model: 'gpt-4.1-mini' });
    const asked: Array<Extract<SessionEvent, { type: 'approval-requested' }>> = [];
    for await (const event of conversation.submit('tidy up')) {
      if (event.type !== 'approval-requested') continue;
      asked.push(event);
      conversation.respond(event.id, answer);
    }
    const rollout = await readFile(join(home, 'conversations', `${conversation.id}.jsonl`), 'utf8');
    return { asked, rollout };
  };

  it('asks, names it, offers no "always"; declined, nothing is written, the ordinary edit runs unasked', async () => {
    const config = await readFile(join(work, '.git/config'), 'utf8');
    const { asked } = await turn('deny');
    expect(asked.map((event) => [event.call.call_id, event.reason, event.alwaysScope])).toEqual([
      ['c1', 'edit .git/config — repository configuration', undefined],
    ]);
    expect(await readFile(join(work, '.git/config'), 'utf8')).toBe(config);
    expect(await readFile(join(work, 'app.js'), 'utf8')).toBe('two\n');
    expect(existsSync(marker)).toBe(false);
  });

  it('approved, the config is written and the turn’s snapshots run nothing it names', async () => {
    const { asked, rollout } = await turn('approve');
    expect(asked.map((event) => event.call.call_id)).toEqual(['c1']);
    expect(await readFile(join(work, '.git/config'), 'utf8')).toContain(
      `fsmonitor = "touch ${marker}; echo"`,
    );
    // The snapshot before the first change and the change set at the end of the turn were both taken.
    expect(rollout).toContain('"ghost_snapshot"');
    expect(rollout).toMatch(/turn_changes"[^\n]*app\.js/);
    expect(existsSync(marker)).toBe(false);
  });
});
