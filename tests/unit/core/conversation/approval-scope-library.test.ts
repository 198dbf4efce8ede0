/**
 * The "always" scope is computed in core, so the library (and with it `cody serve`) gets the same one the
 * terminal shows: on the `approval-requested` event as `alwaysScope`, honoured by `approve-session`,
 * with a later call outside it (a deletion) asking again.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCody, type Cody } from '../../../../src/core/engine/cody.js';
import type { SessionEvent } from '../../../../src/core/conversation/session-events.js';
import type { ModelClient, ModelRequest, StreamEvent } from '../../../../src/protocol/index.js';

const patch = (...lines: string[]): string => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n');

function callOf(index: number, input: string): StreamEvent[] {
  return [
    {
      type: 'item',
      item: {
        type: 'function_call',
        name: 'apply_patch',
        arguments: JSON.stringify({ input }),
        call_id: `c${index}`,
      },
    },
    { type: 'finish', reason: 'tool-calls' },
  ];
}

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

describe('the "always" scope through createCody', () => {
  let home: string;
  let cody: Cody;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'cody-scope-lib-'));
    await writeFile(join(home, 'README.md'), 'keep me\n');
    const client = new ScriptClient([
      callOf(1, patch('*** Add File: app.js', '+one')),
      callOf(2, patch('*** Update File: app.js', '@@', '-one', '+two')),
      callOf(3, patch('*** Delete File: README.md')),
      [
        { type: 'text-delta', text: 'done' },
        {
          type: 'item',
          item: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'done' }] },
        },
        { type: 'finish', reason: 'stop' },
      ],
    ]);
    cody = createCody({ home, env: {}, cwd: home, clientFactory: () => Promise.resolve(client) });
  });
  afterEach(async () => {
    await cody.close();
    await rm(home, { recursive: true, force: true });
  });

  it('names the scope on approval-requested; approve-session covers that file, a deletion asks again', async () => {
    const conversation = await cody.create({ provider: 'openai', api: 'chat', model: 'gpt-4.1-mini' });
    const asked: Array<Extract<SessionEvent, { type: 'approval-requested' }>> = [];
    for await (const event of conversation.submit('edit then delete')) {
      if (event.type !== 'approval-requested') continue;
      asked.push(event);
      conversation.respond(event.id, asked.length === 1 ? 'approve-session' : 'deny');
    }
    expect(asked.map((event) => event.call.call_id)).toEqual(['c1', 'c3']);
    expect(asked[0]?.alwaysScope).toEqual({ kind: 'file', label: 'patches to app.js' });
    expect(asked[1]?.alwaysScope).toBeUndefined();
    expect(asked[1]?.reason).toMatch(/^deletes README\.md/);
    expect(await readFile(join(home, 'app.js'), 'utf8')).toBe('two\n');
    expect(await readFile(join(home, 'README.md'), 'utf8')).toBe('keep me\n');
  });
});
