/**
 * `cody mcp-server` over stdio, driven by the official MCP SDK's client against the built `bin/cody`: the
 * tools and their schemas, a turn and its continuation, approvals put to an elicitation-capable client
 * (accepted, declined) and declined for a client that cannot be asked, progress notifications, and a
 * cancel mid-command. Two spawns: one client with elicitation, one without.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  CallToolResultSchema,
  ElicitRequestSchema,
  type ElicitRequest,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandEnded } from '../process-ended.js';
import { CODY_BIN, createHarness, linesOfType, type Harness } from './harness.js';

interface Connected {
  client: Client;
  /** Errors the client saw (a line on stdout that is not a protocol message is one). */
  errors: Error[];
  stderr: () => string;
}

let harness: Harness;
let asking: Connected;
let mute: Connected;
let workspace: string;
/** Each elicitation the server sends, and the answers the person gives, in order. */
const questions: ElicitRequest['params'][] = [];
const answers: ElicitResult[] = [];

async function connect(elicitation: boolean): Promise<Connected> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CODY_BIN, 'mcp-server'],
    env: harness.env,
    cwd: harness.home,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client(
    { name: 'mcp-server-test', version: '1.0.0' },
    { capabilities: elicitation ? { elicitation: { form: {} } } : {} },
  );
  if (elicitation) {
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      questions.push(request.params);
      return answers.shift() ?? { action: 'cancel' };
    });
  }
  const errors: Error[] = [];
  client.onerror = (error) => errors.push(error);
  await client.connect(transport);
  return { client, errors, stderr: () => stderr };
}

function textOf(result: object): string[] {
  const content = ('content' in result ? result.content : []) as Array<{ type: string; text?: string }>;
  return content.map((part) => part.text ?? '');
}

/** The text of every part of a recorded request's body (what the model was sent). */
function sent(index: number): string {
  return JSON.stringify(harness.server.modelRequests().at(index)?.body);
}

beforeAll(async () => {
  harness = await createHarness();
  await harness.writeConfig({ provider: 'openai', api: 'chat', model: 'gpt-4o-mini' });
  workspace = join(harness.home, 'work');
  await mkdir(workspace);
  [asking, mute] = await Promise.all([connect(true), connect(false)]);
});

afterAll(async () => {
  await Promise.all([asking.client.close(), mute.client.close()]);
  await harness.close();
});

describe('cody mcp-server', () => {
  it('lists cody and cody-reply with their input and output schemas', async () => {
    const { tools } = await asking.client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['cody', 'cody-reply']);
    const cody = tools.find((tool) => tool.name === 'cody');
    expect(Object.keys(cody?.inputSchema.properties ?? {}).sort()).toEqual(
      ['approval-policy', 'cwd', 'model', 'prompt', 'reasoning'].sort(),
    );
    expect(cody?.inputSchema.required).toEqual(['prompt']);
    expect(cody?.inputSchema.properties?.['approval-policy']).toMatchObject({
      enum: ['read-only', 'ask', 'auto-edit', 'full-auto'],
    });
    const reply = tools.find((tool) => tool.name === 'cody-reply');
    expect(reply?.inputSchema.required?.sort()).toEqual(['conversationId', 'prompt']);
    expect(Object.keys(reply?.outputSchema?.properties ?? {}).sort()).toEqual(['conversationId', 'reply']);
  });

  it('runs a turn in a new conversation with progress, then continues it with cody-reply', async () => {
    harness.server.enqueue({ type: 'reply', text: 'Hello from Cody.' });
    const progress: Array<{ progress: number; message?: string }> = [];
    const first = await asking.client.callTool(
      { name: 'cody', arguments: { prompt: 'say hello', cwd: workspace, model: 'gpt-4.1-mini' } },
      CallToolResultSchema,
      { onprogress: (note) => progress.push(note) },
    );
    expect(first.isError).toBeFalsy();
    const { conversationId, reply } = first.structuredContent as { conversationId: string; reply: string };
    expect(reply).toBe('Hello from Cody.');
    expect(textOf(first)).toEqual(['Hello from Cody.', `conversationId: ${conversationId}`]);
    // On the wire: the model asked for, and the rollout on disk with the turn and the workspace.
    expect(harness.server.modelRequests().at(-1)?.model).toBe('gpt-4.1-mini');
    const lines = await harness.rollout(conversationId);
    expect(linesOfType(lines, 'session_meta')[0]?.payload.cwd).toBe(workspace);
    expect(lines.join('\n')).toContain('Hello from Cody.');
    // Progress: numbered upwards, the first naming the conversation, the last the turn's end.
    expect(progress.map((note) => note.progress)).toEqual(progress.map((_note, index) => index + 1));
    expect(progress[0]?.message).toContain(`conversation ${conversationId}`);
    expect(progress.at(-1)?.message).toBe('turn completed');

    harness.server.enqueue({ type: 'reply', text: 'Still here.' });
    const second = await asking.client.callTool({
      name: 'cody-reply',
      arguments: { conversationId, prompt: 'are you there?' },
    });
    expect(second.structuredContent).toEqual({ conversationId, reply: 'Still here.' });
    // The second request carries the history, on the conversation's own model.
    expect(sent(-1)).toContain('say hello');
    expect(sent(-1)).toContain('Hello from Cody.');
    expect(sent(-1)).toContain('are you there?');
    expect(harness.server.modelRequests().at(-1)?.model).toBe('gpt-4.1-mini');
  });

  it('puts an approval to an elicitation-capable client: allowed runs, declined does not', async () => {
    for (const [file, answer] of [
      ['allowed.txt', { action: 'accept', content: { decision: 'allow once' } }],
      ['declined.txt', { action: 'decline' }],
    ] as const) {
      harness.server.enqueue(
        {
          type: 'reply',
          toolCalls: [{ id: `call_${file}`, name: 'shell', arguments: { command: `touch ${file}` } }],
        },
        { type: 'reply', text: 'Done.' },
      );
      answers.push(answer);
      const asked = questions.length;
      const result = await asking.client.callTool({
        name: 'cody',
        arguments: { prompt: `make ${file}`, cwd: workspace, 'approval-policy': 'ask' },
      });
      expect(result.structuredContent).toMatchObject({ reply: 'Done.' });
      expect(questions.length).toBe(asked + 1);
      const question = questions.at(-1);
      expect(question?.message).toContain(`touch ${file}`);
      expect(question && 'requestedSchema' in question ? question.requestedSchema : {}).toMatchObject({
        required: ['decision'],
      });
      expect(existsSync(join(workspace, file))).toBe(answer.action === 'accept');
      // The model is told what happened to its call.
      const output = sent(-1);
      if (answer.action === 'accept') expect(output).not.toMatch(/denied|declined/i);
      else expect(output).toMatch(/denied|declined/i);
    }
  });

  it('declines what needs a person under ask when the client cannot be asked', async () => {
    harness.server.enqueue(
      {
        type: 'reply',
        toolCalls: [{ id: 'call_mute', name: 'shell', arguments: { command: 'touch unasked.txt' } }],
      },
      { type: 'reply', text: 'Could not.' },
    );
    const asked = questions.length;
    const result = await mute.client.callTool({
      name: 'cody',
      arguments: { prompt: 'make unasked.txt', cwd: workspace, 'approval-policy': 'ask' },
    });
    expect(result.structuredContent).toMatchObject({ reply: 'Could not.' });
    expect(existsSync(join(workspace, 'unasked.txt'))).toBe(false);
    expect(questions.length).toBe(asked);
    expect(sent(-1)).toMatch(/declined|denied/i);
  });

  it('a cancelled call stops its turn and the command, and the conversation goes on', async () => {
    harness.server.enqueue({
      type: 'reply',
      toolCalls: [
        {
          id: 'call_long',
          name: 'shell',
          arguments: { command: 'echo started; sleep 61.7 & echo $! > sleeper.pid; wait; echo never' },
        },
      ],
    });
    const controller = new AbortController();
    let conversationId = '';
    const call = mute.client
      .callTool(
        {
          name: 'cody',
          arguments: { prompt: 'run the long thing', cwd: workspace, 'approval-policy': 'full-auto' },
        },
        CallToolResultSchema,
        {
          signal: controller.signal,
          onprogress: (note) =>
            (conversationId ||= /conversation (\S+):/.exec(note.message ?? '')?.[1] ?? ''),
        },
      )
      .catch((error: unknown) => error);
    const started = Date.now();
    while (!existsSync(join(workspace, 'sleeper.pid'))) {
      if (Date.now() - started > 20_000) throw new Error('the command never started');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    controller.abort();
    expect(await call).toBeInstanceOf(Error);
    expect(await commandEnded(['sleep', '61.7'])).toBe(true);
    expect(conversationId).not.toBe('');

    // The rollout is consistent: the call's output recorded as aborted, and the next turn is accepted.
    harness.server.enqueue({ type: 'reply', text: 'It was stopped.' });
    const next = await mute.client.callTool({
      name: 'cody-reply',
      arguments: { conversationId, prompt: 'what happened?' },
    });
    expect(next.structuredContent).toMatchObject({ reply: 'It was stopped.' });
    const items = linesOfType(await harness.rollout(conversationId), 'response_item').map(
      (line) => line.payload,
    );
    const output = items.find((item) => item.type === 'function_call_output');
    expect(String(output?.output)).toMatch(/^Aborted by the user/);
    expect(harness.server.modelRequests().at(-1)?.rejected).toBeUndefined();
    expect(sent(-1)).toContain('call_long');
  });

  it('kept stdout to protocol messages only', async () => {
    expect(asking.errors).toEqual([]);
    expect(mute.errors).toEqual([]);
    const conversations = await readdir(join(harness.env.CODY_HOME ?? '', 'conversations'));
    expect(conversations.filter((name) => name.endsWith('.jsonl')).length).toBeGreaterThanOrEqual(5);
  });
});
