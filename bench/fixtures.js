/** Files the benchmarks read: many listed conversations, and large rollouts to resume. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const STAMP = '2026-01-01T00:00:00.000Z';
const line = (type, payload, timestamp = STAMP) => JSON.stringify({ timestamp, type, payload });

function meta(id, timestamp = STAMP) {
  return line(
    'session_meta',
    {
      id,
      timestamp,
      cwd: '/tmp',
      originator: 'cody',
      cli_version: '0.1.0',
      provider: 'openai',
      api: 'openai-chat',
      model: 'gpt-4.1-mini',
      model_provider: 'openai',
    },
    timestamp,
  );
}

/** `count` conversations of about `bytesEach`, each ending with the turn_complete that `list` reads. */
export async function makeListHome(home, count, bytesEach) {
  const directory = join(home, 'conversations');
  await mkdir(directory, { recursive: true, mode: 0o700 });
  const filler = 'x'.repeat(900);
  for (let index = 0; index < count; index += 1) {
    const id = `0190${index.toString(16).padStart(4, '0')}-0000-7000-8000-${index.toString(16).padStart(12, '0')}`;
    const stamp = new Date(Date.UTC(2026, 0, 1, 0, 0, index)).toISOString();
    const user = {
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: `conversation ${index}` }],
    };
    const lines = [meta(id, stamp), line('response_item', user, stamp)];
    const reply = line(
      'response_item',
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: filler }] },
      stamp,
    );
    for (let size = 0; size < bytesEach; size += reply.length + 1) lines.push(reply);
    lines.push(
      line(
        'response_item',
        {
          type: 'cody_turn_complete',
          turn_id: 't',
          message_count: lines.length - 1,
          compaction_count: 0,
          first_user_message: `conversation ${index}`,
          provider: 'openai',
          api: 'openai-chat',
          model: 'gpt-4.1-mini',
        },
        stamp,
      ),
    );
    await writeFile(join(directory, `${id}.jsonl`), `${lines.join('\n')}\n`, { mode: 0o600 });
  }
}

/**
 * A rollout of about `bytes` made of tool-using turns in the shape Cody writes (turn context, user
 * message, call, output, reply, token count, turn_complete); with `compacted`, a compaction near the end
 * leaves a short live history.
 */
export async function makeResumeRollout(home, bytes, compacted) {
  const id = '01900000-0000-7000-8000-000000000001';
  const directory = join(home, 'conversations');
  await mkdir(directory, { recursive: true, mode: 0o700 });
  const system = {
    type: 'message',
    role: 'system',
    content: [{ type: 'input_text', text: 'You are Cody.' }],
  };
  const lines = [meta(id), line('response_item', system)];
  const filler = 'lorem ipsum dolor sit amet '.repeat(40);
  let size = 0;
  for (let turn = 0; size < bytes; turn += 1) {
    const turnLines = [
      line('turn_context', {
        turn_id: `t${turn}`,
        cwd: '/tmp',
        provider: 'openai',
        api: 'openai-chat',
        model: 'gpt-4.1-mini',
        approval_policy: 'on-request',
        sandbox_policy: { type: 'workspace-write' },
      }),
      line('response_item', {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: `turn ${turn} ${filler}` }],
      }),
      line('response_item', {
        type: 'function_call',
        name: 'shell',
        arguments: JSON.stringify({ command: ['ls', '-la'] }),
        call_id: `call_${turn}`,
        origin: { api: 'openai-chat', model: 'gpt-4.1-mini' },
      }),
      line('response_item', { type: 'function_call_output', call_id: `call_${turn}`, output: filler }),
      line('response_item', {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: filler }],
        origin: { api: 'openai-chat', model: 'gpt-4.1-mini' },
      }),
      line('event_msg', {
        type: 'token_count',
        info: {
          last_token_usage: {
            input_tokens: 100 * turn,
            cached_input_tokens: 0,
            output_tokens: 50,
            reasoning_output_tokens: 0,
            total_tokens: 100 * turn + 50,
          },
          total_token_usage: {
            input_tokens: 100 * turn,
            cached_input_tokens: 0,
            output_tokens: 50 * turn,
            reasoning_output_tokens: 0,
            total_tokens: 150 * turn,
          },
        },
      }),
      line('response_item', {
        type: 'cody_turn_complete',
        turn_id: `t${turn}`,
        message_count: 2 * turn + 3,
        first_user_message: 'turn 0',
        compaction_count: 0,
      }),
    ];
    lines.push(...turnLines);
    for (const text of turnLines) size += text.length + 1;
  }
  if (compacted) {
    const summary = {
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: '[Cody context summary] the story so far' }],
    };
    lines.push(
      line('compacted', {
        message: 'the story so far',
        replacement_history: [system, summary],
        compaction_count: 1,
      }),
    );
    for (let turn = 0; turn < 5; turn += 1) {
      lines.push(
        line('response_item', {
          type: 'message',
          role: 'user',
          content: [{ type: 'input_text', text: `after ${turn}` }],
        }),
        line('response_item', {
          type: 'message',
          role: 'assistant',
          content: [{ type: 'output_text', text: `reply ${turn}` }],
        }),
      );
    }
  }
  await writeFile(join(directory, `${id}.jsonl`), `${lines.join('\n')}\n`, { mode: 0o600 });
}

/**
 * One conversation of `messages` messages (user and assistant in turns, the replies with Markdown: a
 * heading, a list, inline code and a fenced block), as the web page's render benchmark opens it.
 */
export async function makeMessagesRollout(home, messages) {
  const id = '01900000-0000-7000-8000-00000000beef';
  const directory = join(home, 'conversations');
  await mkdir(directory, { recursive: true, mode: 0o700 });
  const lines = [meta(id)];
  for (let turn = 0; turn * 2 < messages; turn += 1) {
    lines.push(
      line('response_item', {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: `Question ${turn}: how does part ${turn} of the parser work?` },
        ],
      }),
    );
    if (turn * 2 + 1 >= messages) break;
    const reply = [
      `## Part ${turn}`,
      '',
      `The parser reads **tokens** one by one and calls \`parse${turn}()\` for each:`,
      '',
      '- it keeps a stack of open nodes',
      '- it closes them at the end of a line',
      '',
      '```ts',
      `function parse${turn}(tokens: Token[]): Node {`,
      '  return tokens.reduce(step, root());',
      '}',
      '```',
    ].join('\n');
    lines.push(
      line('response_item', {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: reply }],
        origin: { api: 'openai-chat', model: 'gpt-4.1-mini' },
      }),
      line('response_item', {
        type: 'cody_turn_complete',
        turn_id: `t${turn}`,
        message_count: turn * 2 + 2,
        first_user_message: 'Question 0',
        compaction_count: 0,
        provider: 'openai',
        api: 'openai-chat',
        model: 'gpt-4.1-mini',
      }),
    );
  }
  await writeFile(join(directory, `${id}.jsonl`), `${lines.join('\n')}\n`, { mode: 0o600 });
  return id;
}
