/**
 * Hooks through the engine (createCody, a scripted model, real shell and Node hook scripts): a hook
 * written exactly as Claude Code documents it works unchanged, and an untrusted project hook never runs.
 */
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
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
const reply = (text: string): StreamEvent[] => [
  { type: 'item', item: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] } },
  { type: 'finish', reason: 'stop' },
];

class ScriptClient implements ModelClient {
  readonly api = 'openai-chat' as const;
  readonly model = 'gpt-4.1-mini';
  readonly requests: ModelRequest[] = [];
  constructor(private readonly steps: StreamEvent[][]) {}
  async *stream(request: ModelRequest): AsyncGenerator<StreamEvent> {
    this.requests.push(request);
    yield* this.steps[this.requests.length - 1] ?? reply('done');
  }
}

let home: string;
let work: string;

beforeEach(async () => {
  home = await realpath(await mkdtemp(join(tmpdir(), 'cody-hooks-home-')));
  work = await realpath(await mkdtemp(join(tmpdir(), 'cody-hooks-work-')));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
  await rm(work, { recursive: true, force: true });
});

async function script(name: string, body: string): Promise<string> {
  const path = join(home, name);
  await writeFile(path, body);
  await chmod(path, 0o755);
  return path;
}

async function userHooks(hooks: object): Promise<void> {
  await writeFile(join(home, 'config.json'), JSON.stringify({ hooks }));
}

async function run(
  steps: StreamEvent[][],
  prompt = 'go',
  policy: 'ask' | 'auto-edit' | 'full-auto' = 'full-auto',
): Promise<{ events: SessionEvent[]; client: ScriptClient; cody: Cody; rollout: string }> {
  const client = new ScriptClient(steps);
  const cody = createCody({
    home,
    env: {},
    cwd: work,
    approvalPolicy: policy,
    clientFactory: () => Promise.resolve(client),
  });
  const conversation = await cody.create({ provider: 'openai', api: 'chat', model: 'gpt-4.1-mini' });
  const events: SessionEvent[] = [];
  for await (const event of conversation.submit(prompt)) {
    events.push(event);
    if (event.type === 'approval-requested') conversation.respond(event.id, 'deny');
  }
  await cody.close();
  const rollout = await readFile(join(home, 'conversations', `${conversation.id}.jsonl`), 'utf8').catch(
    () => '',
  );
  return { events, client, cody, rollout };
}

const outputOf = (client: ScriptClient, callId: string): string => {
  for (const request of client.requests)
    for (const item of request.items)
      if (item.type === 'function_call_output' && item.call_id === callId)
        return typeof item.output === 'string' ? item.output : JSON.stringify(item.output);
  return '';
};

/** Claude Code's documented example: a PreToolUse hook on Bash that blocks `rm -rf` by exit 2. */
const BLOCK_RM = `#!/bin/bash
COMMAND=$(node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).tool_input.command))')
if echo "$COMMAND" | grep -q 'rm -rf'; then
  echo "Destructive command blocked by hook" >&2
  exit 2
fi
exit 0
`;

describe('hooks through the engine', () => {
  it('blocks rm -rf with a PreToolUse hook on Bash written as Claude Code documents it', async () => {
    await mkdir(join(work, 'build'));
    await writeFile(join(work, 'build', 'keep'), 'x');
    const hook = await script('block-rm.sh', BLOCK_RM);
    await userHooks({ PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: hook }] }] });
    const { events, client, rollout } = await run([
      toolCall('c1', 'shell', { command: 'rm -rf build' }),
      toolCall('c2', 'shell', { command: 'echo fine' }),
      reply('ok'),
    ]);
    expect(existsSync(join(work, 'build', 'keep'))).toBe(true);
    expect(outputOf(client, 'c1')).toContain('Destructive command blocked by hook');
    expect(outputOf(client, 'c2')).toContain('fine');
    const declined = events.find((event) => event.type === 'tool-call' && event.call.call_id === 'c1');
    expect(declined).toMatchObject({ approved: false, declinedBy: 'hook' });
    const hooks = events.filter((event) => event.type === 'hook');
    expect(hooks.map((event) => event.type === 'hook' && event.decision)).toEqual(['deny', undefined]);
    expect(rollout).toMatch(/"type":"hook","hook_event_name":"PreToolUse"[^\n]*"decision":"deny"/);
  });

  it('runs a prettier-like PostToolUse hook on Edit|Write with tool_input.file_path', async () => {
    const log = join(home, 'formatted.log');
    const hook = await script(
      'format.js',
      `#!/usr/bin/env node
let s = ''; process.stdin.on('data', (d) => (s += d)).on('end', () => {
  const input = JSON.parse(s);
  const fs = require('node:fs');
  const file = input.tool_input.file_path;
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').toUpperCase());
  fs.appendFileSync(${JSON.stringify(log)}, input.hook_event_name + ' ' + input.tool_name + ' ' + file + ' ' + process.env.CLAUDE_PROJECT_DIR + '\\n');
});
`,
    );
    await userHooks({
      PostToolUse: [{ matcher: 'Edit|Write', hooks: [{ type: 'command', command: hook }] }],
    });
    await run([toolCall('c1', 'write_file', { path: 'a.txt', content: 'hello\n' }), reply('ok')]);
    expect(await readFile(join(work, 'a.txt'), 'utf8')).toBe('HELLO\n');
    expect(await readFile(log, 'utf8')).toBe(`PostToolUse write_file ${join(work, 'a.txt')} ${work}\n`);
  });

  it('adds UserPromptSubmit context to the request the model is sent', async () => {
    const hook = await script('context.sh', '#!/bin/sh\necho "The deploy freeze is on until Friday."\n');
    await userHooks({ UserPromptSubmit: [{ hooks: [{ type: 'command', command: hook }] }] });
    const { client } = await run([reply('ok')], 'ship it');
    const text = JSON.stringify(client.requests[0]?.items);
    expect(text).toContain('The deploy freeze is on until Friday.');
    expect(text.indexOf('ship it')).toBeLessThan(text.indexOf('deploy freeze'));
  });

  it('a UserPromptSubmit block stops the prompt before anything is sent', async () => {
    const hook = await script('no.sh', '#!/bin/sh\necho "no secrets in prompts" >&2\nexit 2\n');
    await userHooks({ UserPromptSubmit: [{ hooks: [{ type: 'command', command: hook }] }] });
    const { client, events } = await run([reply('ok')], 'my password is hunter2');
    expect(client.requests).toHaveLength(0);
    expect(events.at(-1)).toMatchObject({
      type: 'turn-failed',
      error: { message: expect.stringContaining('no secrets in prompts') as unknown },
    });
  });

  it('a Stop hook sends the model back once; the second run sees stop_hook_active', async () => {
    const seen = join(home, 'stop.log');
    const hook = await script(
      'stop.js',
      `#!/usr/bin/env node
let s = ''; process.stdin.on('data', (d) => (s += d)).on('end', () => {
  const input = JSON.parse(s);
  require('node:fs').appendFileSync(${JSON.stringify(seen)}, String(input.stop_hook_active) + '\\n');
  if (!input.stop_hook_active) console.log(JSON.stringify({ decision: 'block', reason: 'run the tests first' }));
});
`,
    );
    await userHooks({ Stop: [{ hooks: [{ type: 'command', command: hook }] }] });
    const { client } = await run([reply('all done'), reply('tests pass')]);
    expect(await readFile(seen, 'utf8')).toBe('false\ntrue\n');
    expect(client.requests).toHaveLength(2);
    expect(JSON.stringify(client.requests[1]?.items)).toContain('run the tests first');
  });

  it('updatedInput rewrites a command, and the rewritten call is what runs (policy decides it again)', async () => {
    const hook = await script(
      'rewrite.sh',
      `#!/bin/sh\necho '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"echo rewritten > out.txt"}}}'\n`,
    );
    await userHooks({ PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: hook }] }] });
    const { events } = await run([
      toolCall('c1', 'shell', { command: 'echo original > out.txt' }),
      reply('ok'),
    ]);
    expect(await readFile(join(work, 'out.txt'), 'utf8')).toBe('rewritten\n');
    const started = events.find((event) => event.type === 'tool-started');
    expect(started?.type === 'tool-started' && started.call.arguments).toContain('rewritten');
  });

  it("a hook's allow never lifts a question the policy asks whatever was said (outside the workspace)", async () => {
    const hook = await script(
      'allow.sh',
      `#!/bin/sh\necho '{"hookSpecificOutput":{"permissionDecision":"allow"}}'\n`,
    );
    await userHooks({ PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: hook }] }] });
    const outside = join(home, 'outside.txt');
    const { events } = await run(
      [
        toolCall('c1', 'write_file', { path: outside, content: 'x' }),
        toolCall('c2', 'write_file', { path: 'in.txt', content: 'y' }),
        reply('ok'),
      ],
      'go',
      'ask',
    );
    // Outside: still asked (and denied by the test's answer); inside: the hook's allow answers the question.
    expect(
      events
        .filter((event) => event.type === 'approval-requested')
        .map((event) => event.type === 'approval-requested' && event.call.call_id),
    ).toEqual(['c1']);
    expect(existsSync(outside)).toBe(false);
    expect(await readFile(join(work, 'in.txt'), 'utf8')).toBe('y');
  });

  it('skips an untrusted project hook with a warning; trusted, it runs', async () => {
    const marker = join(work, 'pwned');
    await mkdir(join(work, '.cody'));
    await writeFile(
      join(work, '.cody', 'hooks.json'),
      JSON.stringify({ UserPromptSubmit: [{ hooks: [{ type: 'command', command: `touch ${marker}` }] }] }),
    );
    const first = await run([reply('ok')]);
    expect(existsSync(marker)).toBe(false);
    expect(
      first.events
        .filter((event) => event.type === 'warning')
        .map((event) => event.type === 'warning' && event.message),
    ).toEqual([
      expect.stringMatching(
        /^Project hooks in \.cody\/hooks\.json are not trusted and were skipped \(1 command\)/,
      ),
    ]);
    const cody = createCody({ home, env: {}, cwd: work });
    const listing = await cody.hooks();
    expect(listing.project).toMatchObject({ state: 'untrusted', entries: [{ command: `touch ${marker}` }] });
    if (listing.project.state !== 'untrusted') throw new Error('expected untrusted');
    await cody.trustProjectHooks(listing.project.sha256);
    await cody.close();
    await run([reply('ok')]);
    expect(existsSync(marker)).toBe(true);
    // A changed file is untrusted again.
    await rm(marker);
    await writeFile(
      join(work, '.cody', 'hooks.json'),
      JSON.stringify({
        UserPromptSubmit: [{ hooks: [{ type: 'command', command: `touch ${marker}; true` }] }],
      }),
    );
    await run([reply('ok')]);
    expect(existsSync(marker)).toBe(false);
  });

  it('a listing first (the REPL start, /hooks) leaves the skipped warning to the next turn', async () => {
    const marker = join(work, 'listed');
    await mkdir(join(work, '.cody'));
    await writeFile(
      join(work, '.cody', 'hooks.json'),
      JSON.stringify({ UserPromptSubmit: [{ hooks: [{ type: 'command', command: `touch ${marker}` }] }] }),
    );
    const cody = createCody({
      home,
      env: {},
      cwd: work,
      clientFactory: () => Promise.resolve(new ScriptClient([reply('ok')])),
    });
    expect((await cody.hooks()).project.state).toBe('untrusted');
    const conversation = await cody.create({ provider: 'openai', api: 'chat', model: 'gpt-4.1-mini' });
    const warnings: string[] = [];
    for await (const event of conversation.submit('go'))
      if (event.type === 'warning') warnings.push(event.message);
    await cody.close();
    expect(warnings).toEqual([
      expect.stringMatching(/^Project hooks in \.cody\/hooks\.json are not trusted/),
    ]);
    expect(existsSync(marker)).toBe(false);
  });
});
