/**
 * Approvals only for calls that can run (issue 29): a file change is checked against the file before
 * anyone is asked, a web_fetch of an address that will be refused is refused before asking, and the
 * model is told why in one sentence, as the call's error. Through the engine (createCody with a
 * scripted model), so every front end gets the same refusal.
 */
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCody, type Cody } from '../../../../src/core/engine/cody.js';
import type { SessionEvent } from '../../../../src/core/conversation/session-events.js';
import type { ModelClient, ModelRequest, StreamEvent } from '../../../../src/protocol/index.js';

const patch = (...lines: string[]): string => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n');

/** One tool call, then a closing reply; records the requests it was sent. */
class OneCallClient implements ModelClient {
  readonly api = 'openai-chat' as const;
  readonly model = 'gpt-4.1-mini';
  readonly requests: ModelRequest[] = [];
  constructor(private readonly call: { name: string; args: Record<string, unknown> }) {}
  async *stream(request: ModelRequest): AsyncGenerator<StreamEvent> {
    this.requests.push({ ...request, items: [...request.items] });
    if (this.requests.length === 1) {
      const { name, args } = this.call;
      yield {
        type: 'item',
        item: { type: 'function_call', name, arguments: JSON.stringify(args), call_id: 'c1' },
      };
      yield { type: 'finish', reason: 'tool-calls' };
      return;
    }
    const text = 'ok';
    yield {
      type: 'item',
      item: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] },
    };
    yield { type: 'finish', reason: 'stop' };
  }
}

describe('calls that cannot apply are refused before anyone is asked', () => {
  let home: string;
  let work: string;
  let outside: string;
  let cody: Cody | undefined;
  beforeEach(async () => {
    home = await realpath(await mkdtemp(join(tmpdir(), 'cody-precheck-home-')));
    work = await realpath(await mkdtemp(join(tmpdir(), 'cody-precheck-work-')));
    outside = await realpath(await mkdtemp(join(tmpdir(), 'cody-precheck-out-')));
    await writeFile(join(work, 'a.txt'), 'one\ntwo\ntwo\n');
    await mkdir(join(work, 'sub'));
  });
  afterEach(async () => {
    await cody?.close();
    cody = undefined;
    for (const dir of [home, work, outside]) await rm(dir, { recursive: true, force: true });
  });

  /** Runs one turn whose model makes `call`, approving any question; what was asked, decided and sent. */
  const turn = async (name: string, args: Record<string, unknown>, policy: 'ask' | 'full-auto' = 'ask') => {
    const client = new OneCallClient({ name, args });
    cody = createCody({
      home,
      env: {},
      cwd: work,
      approvalPolicy: policy,
      clientFactory: () => Promise.resolve(client),
    });
    const conversation = await cody.create({ provider: 'openai', api: 'chat', model: 'gpt-4.1-mini' });
    const asked: string[] = [];
    const calls: Array<Extract<SessionEvent, { type: 'tool-call' }>> = [];
    const finished: string[] = [];
    for await (const event of conversation.submit('change it')) {
      if (event.type === 'approval-requested') {
        asked.push(event.call.name);
        conversation.respond(event.id, 'approve');
      }
      if (event.type === 'tool-call') calls.push(event);
      if (event.type === 'tool-finished') finished.push(event.status);
    }
    const output = client.requests[1]?.items.find((item) => item.type === 'function_call_output');
    const sent = output?.type === 'function_call_output' ? String(output.output) : undefined;
    return { asked, calls, finished, sent };
  };

  const refusals: Array<[string, string, Record<string, unknown>, RegExp]> = [
    [
      'edit_file whose old_text does not occur',
      'edit_file',
      { path: 'a.txt', old_text: 'zzz', new_text: 'y' },
      /^old_text does not occur in a\.txt; it must occur exactly once\.$/,
    ],
    [
      'edit_file whose old_text occurs twice',
      'edit_file',
      { path: 'a.txt', old_text: 'two', new_text: 'y' },
      /^old_text occurs 2 times in a\.txt; it must occur exactly once/,
    ],
    [
      'edit_file of a missing file',
      'edit_file',
      { path: 'nope.txt', old_text: 'x', new_text: 'y' },
      /^no such file: nope\.txt$/,
    ],
    [
      'edit_file of a directory',
      'edit_file',
      { path: 'sub', old_text: 'x', new_text: 'y' },
      /^sub is a directory$/,
    ],
    [
      'apply_patch whose context is missing',
      'apply_patch',
      { input: patch('*** Update File: a.txt', '@@', ' not there', '-one', '+uno') },
      /^the patch does not apply: Context not found in a\.txt/,
    ],
    [
      'apply_patch updating a missing file',
      'apply_patch',
      { input: patch('*** Update File: gone.txt', '@@', '-one', '+uno') },
      /^the patch does not apply: Cannot update gone\.txt: no such file\.$/,
    ],
    [
      'apply_patch adding a file that exists',
      'apply_patch',
      { input: patch('*** Add File: a.txt', '+new') },
      /^the patch does not apply: Cannot add a\.txt: the file already exists\.$/,
    ],
    [
      'web_fetch of a loopback address',
      'web_fetch',
      { url: 'http://127.0.0.1:9/admin' },
      /^web_fetch refuses http:\/\/127\.0\.0\.1:9\/admin: 127\.0\.0\.1 is a loopback address \(set "webFetch": \{ "allowPrivate": true \} in config\.json to allow it\)\.$/,
    ],
    [
      'web_fetch of a private address',
      'web_fetch',
      { url: 'http://10.0.0.7/' },
      /^web_fetch refuses http:\/\/10\.0\.0\.7\/: 10\.0\.0\.7 is a private address/,
    ],
    [
      'web_fetch of the cloud metadata address',
      'web_fetch',
      { url: 'http://169.254.169.254/latest/meta-data/' },
      /: 169\.254\.169\.254 is a link-local address/,
    ],
    [
      'web_fetch of the metadata address written as an IPv4-mapped IPv6 address',
      'web_fetch',
      { url: 'http://[::ffff:169.254.169.254]/' },
      /is a link-local address/,
    ],
    [
      'web_fetch of a metadata host name',
      'web_fetch',
      { url: 'http://metadata.google.internal/computeMetadata/v1/' },
      /: metadata\.google\.internal names this machine or a local network/,
    ],
    [
      'web_fetch of localhost',
      'web_fetch',
      { url: 'http://localhost:3000/' },
      /: localhost names this machine/,
    ],
  ];

  it.each(refusals)(
    '%s: refused unasked, its reason sent to the model',
    async (_what, name, args, reason) => {
      const before = await readFile(join(work, 'a.txt'), 'utf8');
      const { asked, calls, finished, sent } = await turn(name, args);
      expect(asked).toEqual([]);
      expect(calls).toHaveLength(1);
      expect(calls[0]).toMatchObject({ approved: false, declinedBy: 'cannot-apply' });
      expect(calls[0]?.reason).toMatch(reason);
      // One clear sentence: no "resolves to … is a" run together.
      expect(calls[0]?.reason).not.toMatch(/resolves to \S+ is a/);
      expect(sent).toBe(`Error: ${calls[0]?.reason ?? ''}`);
      expect(finished).toEqual(['denied']);
      expect(await readFile(join(work, 'a.txt'), 'utf8')).toBe(before);
    },
  );

  it('a change that applies still asks, with the question and the change made once approved', async () => {
    const { asked, sent } = await turn('edit_file', { path: 'a.txt', old_text: 'one', new_text: 'uno' });
    expect(asked).toEqual(['edit_file']);
    expect(sent).toBe('Edited a.txt.');
    expect(await readFile(join(work, 'a.txt'), 'utf8')).toBe('uno\ntwo\ntwo\n');
  });

  it('a public host name is not looked up before asking (the lookup would leak the name unasked)', async () => {
    const { asked } = await turn('web_fetch', { url: 'http://secret-data.attacker.invalid/' });
    expect(asked).toEqual(['web_fetch']);
  });

  it('never reads a file outside the workspace to check it: that would answer the model unasked', async () => {
    await writeFile(join(outside, 'secret.txt'), 'password=hunter2\n');
    await symlink(join(outside, 'secret.txt'), join(work, 'link.txt'));
    for (const path of [join(outside, 'secret.txt'), 'link.txt']) {
      const { asked, calls } = await turn('edit_file', { path, old_text: 'password=guess', new_text: 'x' });
      // Whether the text is there is not told: the call asks (and fails only when run).
      expect(asked).toEqual(['edit_file']);
      expect(calls[0]?.declinedBy).toBeUndefined();
      await cody?.close();
      cody = undefined;
    }
  });

  it('a missing file is named as the call gave it, not by Node’s ENOENT with the absolute path', async () => {
    const { sent } = await turn('read_file', { path: 'nope.txt' });
    expect(sent).toBe('Error: no such file: nope.txt');
  });

  it('an unknown tool cannot apply: declined with its reason', async () => {
    const { calls, sent } = await turn('nosuch', { x: 1 });
    expect(calls[0]).toMatchObject({
      declinedBy: 'cannot-apply',
      reason: "no tool named 'nosuch' is available.",
    });
    expect(sent).toBe("Error: no tool named 'nosuch' is available.");
  });

  it('under full-auto too, the refusal is the check’s, not a run that fails', async () => {
    const { calls, sent } = await turn(
      'edit_file',
      { path: 'a.txt', old_text: 'zzz', new_text: 'y' },
      'full-auto',
    );
    expect(calls[0]).toMatchObject({ approved: false, declinedBy: 'cannot-apply' });
    expect(sent).toBe('Error: old_text does not occur in a.txt; it must occur exactly once.');
  });
});
