/**
 * Importing the two real Codex rollouts in tests/fixtures/codex-rollouts/. The expected counts are taken
 * from the source files here, line by line with JSON.parse, independently of Cody's reader.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConversationManager } from '../../../../src/core/store/conversation-manager.js';
import { CorruptRolloutError } from '../../../../src/core/errors.js';
import { type CodyPaths, resolveCodyPaths } from '../../../../src/core/config/paths.js';
import { convertCodexRollout } from '../../../../src/core/rollout/codex-import.js';
import {
  CODEX_ROLLOUT_DIR,
  type LineOnDisk,
  makeTempDir,
  readLines,
  removeTempDir,
} from '../mocked-service.js';

const SOURCES = readdirSync(CODEX_ROLLOUT_DIR).filter((name) => name.endsWith('.jsonl'));

interface SourceFacts {
  id: string;
  cwd: string;
  firstModel: string | undefined;
  /** response_item payload types, in order. */
  itemTypes: string[];
  turnContexts: number;
  tokenCounts: number;
  /** user_message events whose text no user message item carries (Codex Desktop records only those). */
  eventOnlyUserMessages: number;
  customCalls: Array<{ name: string; call_id: string; input: string }>;
  opaque: Array<Record<string, unknown>>;
}

function readSource(name: string): SourceFacts {
  const facts: SourceFacts = {
    id: '',
    cwd: '',
    firstModel: undefined,
    itemTypes: [],
    turnContexts: 0,
    tokenCounts: 0,
    eventOnlyUserMessages: 0,
    customCalls: [],
    opaque: [],
  };
  const userItems = new Set<string>();
  const userEvents: string[] = [];
  for (const text of readFileSync(join(CODEX_ROLLOUT_DIR, name), 'utf8').split('\n')) {
    if (text.trim() === '') continue;
    const { type, payload } = JSON.parse(text) as LineOnDisk;
    if (type === 'session_meta') {
      facts.id = String(payload.id);
      facts.cwd = String(payload.cwd);
    } else if (type === 'turn_context') {
      facts.turnContexts += 1;
      facts.firstModel ??= String(payload.model);
    } else if (type === 'event_msg' && payload.type === 'token_count') {
      facts.tokenCounts += 1;
    } else if (type === 'event_msg' && payload.type === 'user_message' && String(payload.message).trim()) {
      userEvents.push(String(payload.message).trim());
    } else if (type === 'response_item') {
      facts.itemTypes.push(String(payload.type));
      if (payload.type === 'message' && payload.role === 'user') {
        const parts = payload.content as Array<{ text?: string }>;
        userItems.add(
          parts
            .map((part) => part.text ?? '')
            .join('')
            .trim(),
        );
      }
      if (payload.type === 'custom_tool_call') {
        facts.customCalls.push({
          name: String(payload.name),
          call_id: String(payload.call_id),
          input: String(payload.input),
        });
      }
      if (
        (payload.type === 'message' && payload.role === 'developer') ||
        ![
          'message',
          'reasoning',
          'function_call',
          'function_call_output',
          'custom_tool_call',
          'custom_tool_call_output',
        ].includes(String(payload.type))
      ) {
        facts.opaque.push(payload);
      }
    }
  }
  facts.eventOnlyUserMessages = userEvents.filter((message) => !userItems.has(message)).length;
  return facts;
}

function count(values: readonly string[], wanted: readonly string[]): number {
  return values.filter((value) => wanted.includes(value)).length;
}

describe('importing real Codex rollouts', () => {
  let home: string;
  let paths: CodyPaths;
  let manager: ConversationManager;
  beforeEach(async () => {
    home = await makeTempDir('cody-import-');
    paths = resolveCodyPaths({ CODY_HOME: join(home, 'cody') });
    manager = new ConversationManager(paths, { cliVersion: '9.9.9' });
  });
  afterEach(async () => {
    await removeTempDir(home);
  });

  it('finds both shared rollouts', () => {
    expect(SOURCES).toHaveLength(2);
  });

  for (const name of SOURCES) {
    it(`imports ${name.slice(0, 36)}… with every item, in Cody's vocabulary`, async () => {
      const source = readSource(name);
      const sourcePath = join(CODEX_ROLLOUT_DIR, name);
      const imported = await manager.importCodexRollout(sourcePath);
      expect(await manager.getActiveId()).toBe(imported.id);
      const lines = await readLines(imported.filePath);

      expect(lines[0]).toMatchObject({
        type: 'session_meta',
        payload: {
          id: imported.id,
          cwd: source.cwd,
          originator: 'cody',
          cli_version: '9.9.9',
          provider: 'openai',
          api: 'openai-responses',
          model: source.firstModel ?? 'gpt-5',
          model_provider: 'openai',
          imported_from: { path: sourcePath, id: source.id },
        },
      });
      expect(imported.id).not.toBe(source.id);

      const items = lines
        .filter((entry) => entry.type === 'response_item' && entry.payload.type !== 'cody_turn_complete')
        .map((entry) => entry.payload);
      const types = items.map((item) => String(item.type));
      expect(imported.itemCount).toBe(items.length);
      expect(items).toHaveLength(source.itemTypes.length + source.eventOnlyUserMessages);
      expect(count(types, ['function_call'])).toBe(
        count(source.itemTypes, ['function_call', 'custom_tool_call']),
      );
      expect(count(types, ['function_call_output'])).toBe(
        count(source.itemTypes, ['function_call_output', 'custom_tool_call_output']),
      );
      // Codex's developer messages (its harness instructions) are kept verbatim but opaque: never sent.
      const developerMessages = source.opaque.filter((item) => item.type === 'message').length;
      expect(count(types, ['message'])).toBe(
        count(source.itemTypes, ['message']) + source.eventOnlyUserMessages,
      );
      expect(items.filter((item) => item.type === 'message' && item.role === 'developer')).toHaveLength(
        developerMessages,
      );
      expect(count(types, ['reasoning'])).toBe(count(source.itemTypes, ['reasoning']));
      expect(count(types, ['custom_tool_call', 'custom_tool_call_output'])).toBe(0);
      // Unknown kinds (web_search_call) are kept verbatim, and developer messages marked as Codex's own.
      expect(
        items.filter(
          (item) =>
            item.role === 'developer' ||
            !['message', 'reasoning', 'function_call', 'function_call_output'].includes(String(item.type)),
        ),
      ).toEqual(
        source.opaque.map((item) => (item.role === 'developer' ? { ...item, codex_harness: true } : item)),
      );

      for (const reasoning of items.filter((item) => item.type === 'reasoning')) {
        // Encrypted for the account Codex ran under: kept, marked foreign, never replayed.
        expect(reasoning.origin).toEqual({
          api: 'openai-responses',
          model: source.firstModel ?? 'gpt-5',
          foreign: true,
        });
      }
      for (const custom of source.customCalls) {
        expect(items).toContainEqual({
          type: 'function_call',
          name: custom.name,
          arguments: JSON.stringify({ input: custom.input }),
          call_id: custom.call_id,
        });
      }
      expect(lines.filter((entry) => entry.type === 'turn_context')).toHaveLength(source.turnContexts);
      expect(
        lines.filter((entry) => entry.type === 'event_msg' && entry.payload.type === 'token_count'),
      ).toHaveLength(source.tokenCounts);
      const events = lines.filter((entry) => entry.type === 'event_msg').map((entry) => entry.payload.type);
      expect(new Set(events)).toEqual(
        new Set(source.tokenCounts > 0 ? ['token_count', 'user_message'] : ['user_message']),
      );
      expect(lines.at(-1)).toMatchObject({
        type: 'response_item',
        payload: {
          type: 'cody_turn_complete',
          message_count: expect.any(Number),
          first_user_message: expect.any(String),
        },
      });

      // Resume gives a history whose every function call has its output.
      const resumed = await manager.resumeConversation(imported.id);
      expect(resumed.history).toHaveLength(items.length);
      expect(resumed.messageCount).toEqual(expect.any(Number));
      const outputs = new Set(
        resumed.history.flatMap((item) => (item.type === 'function_call_output' ? [item.call_id] : [])),
      );
      const calls = resumed.history.flatMap((item) => (item.type === 'function_call' ? [item.call_id] : []));
      expect(calls.length).toBeGreaterThan(0);
      for (const callId of calls) expect(outputs.has(callId), callId).toBe(true);
      expect(resumed.warnings).toEqual([]);

      const [listed] = await manager.listConversations();
      expect(listed).toMatchObject({
        id: imported.id,
        provider: 'openai',
        api: 'openai-responses',
        messageCount: expect.any(Number),
      });
      expect(listed?.problem).toBeUndefined();
      expect(listed?.preview).not.toMatch(/^(# AGENTS\.md|<)/);
    });
  }

  it('restores user messages that Codex Desktop recorded only as events, in place', () => {
    const name = SOURCES.find((source) => readSource(source).eventOnlyUserMessages > 0);
    if (!name) throw new Error('no Codex Desktop rollout among the shared files');
    const lines = readFileSync(join(CODEX_ROLLOUT_DIR, name), 'utf8').split('\n');
    const conversion = convertCodexRollout(lines, name);
    const firstItem = conversion.entries.find((entry) => entry.type === 'response_item');
    expect(firstItem).toMatchObject({ item: { type: 'message', role: 'user' } });
    expect(conversion.firstUserMessage).toContain('Files mentioned by the user');
  });

  it('converts compacted lines (with and without replacement_history) and carries them over', () => {
    const meta = JSON.stringify({
      timestamp: 't',
      type: 'session_meta',
      payload: { id: 'src', cwd: '/x', model_provider: 'openai' },
    });
    const lines = [
      meta,
      JSON.stringify({
        timestamp: 't',
        type: 'turn_context',
        payload: { model: 'gpt-5.5', approval_policy: 'never', sandbox_policy: {} },
      }),
      JSON.stringify({ timestamp: 't', type: 'compacted', payload: { message: 'legacy summary' } }),
      JSON.stringify({
        timestamp: 't',
        type: 'compacted',
        payload: {
          message: 'new summary',
          replacement_history: [
            { type: 'reasoning', summary: [], content: null, encrypted_content: 'e' },
            { type: 'custom_tool_call', name: 'apply_patch', call_id: 'c', input: 'patch' },
          ],
        },
      }),
      '',
    ];
    const conversion = convertCodexRollout(lines, 'source.jsonl');
    expect(conversion.model).toBe('gpt-5.5');
    expect(conversion.entries.slice(0, 3)).toEqual([
      {
        type: 'turn_context',
        payload: {
          provider: 'openai',
          api: 'openai-responses',
          model: 'gpt-5.5',
          approval_policy: 'never',
          sandbox_policy: {},
        },
      },
      { type: 'compacted', payload: { message: 'legacy summary' } },
      {
        type: 'compacted',
        payload: {
          message: 'new summary',
          replacement_history: [
            {
              type: 'reasoning',
              summary: [],
              content: null,
              encrypted_content: 'e',
              origin: { api: 'openai-responses', model: 'gpt-5.5', foreign: true },
            },
            { type: 'function_call', name: 'apply_patch', arguments: '{"input":"patch"}', call_id: 'c' },
          ],
        },
      },
    ]);
    expect(conversion.entries.at(-1)).toMatchObject({
      payload: { type: 'turn_complete', compaction_count: 2 },
    });
  });

  it('rejects a file that is not a Codex rollout, naming the line, and leaves nothing behind', async () => {
    const bad = join(home, 'bad.jsonl');
    await writeFile(
      bad,
      `${JSON.stringify({ timestamp: 't', type: 'session_meta', payload: { id: 'x' } })}\nnot json\n{}\n`,
    );
    await expect(manager.importCodexRollout(bad)).rejects.toThrow(CorruptRolloutError);
    await expect(manager.importCodexRollout(bad)).rejects.toThrow(`${bad}:2`);
    expect(await manager.listConversations()).toEqual([]);
  });
});

describe('an imported conversation runs with Cody’s instructions', () => {
  const line = (type: string, payload: Record<string, unknown>): string =>
    JSON.stringify({ timestamp: 't', type, payload });
  const cody = {
    type: 'message' as const,
    role: 'system' as const,
    content: [{ type: 'input_text' as const, text: 'You are Cody.' }],
  };
  const codexDeveloper = {
    type: 'message',
    role: 'developer',
    content: [{ type: 'input_text', text: '<permissions instructions>use exec_command' }],
  };

  it('puts Cody’s system message first (also in a compaction), keeps Codex’s developer messages opaque, and turns local_shell_call into a function call with its output', () => {
    const lines = [
      line('session_meta', { id: 'src', cwd: '/x' }),
      line('response_item', codexDeveloper),
      line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'ls' }] }),
      line('response_item', {
        type: 'local_shell_call',
        call_id: 'call_sh',
        status: 'completed',
        action: { type: 'exec', command: ['ls', '-la'], working_directory: '/x', timeout_ms: 1000 },
      }),
      line('response_item', { type: 'function_call_output', call_id: 'call_sh', output: 'a.txt' }),
      line('compacted', { message: 's', replacement_history: [codexDeveloper] }),
      '',
    ];
    const conversion = convertCodexRollout(lines, 'source.jsonl', cody);
    const items = conversion.entries.flatMap((entry) => (entry.type === 'response_item' ? [entry.item] : []));
    expect(items.slice(0, 5)).toEqual([
      cody,
      { type: 'opaque', raw: { ...codexDeveloper, codex_harness: true } },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'ls' }] },
      {
        type: 'function_call',
        name: 'local_shell',
        arguments: JSON.stringify({ command: ['ls', '-la'], working_directory: '/x', timeout_ms: 1000 }),
        call_id: 'call_sh',
      },
      { type: 'function_call_output', call_id: 'call_sh', output: 'a.txt' },
    ]);
    const compacted = conversion.entries.find((entry) => entry.type === 'compacted');
    expect(compacted?.type === 'compacted' && compacted.payload.replacement_history).toEqual([
      cody,
      { type: 'opaque', raw: { ...codexDeveloper, codex_harness: true } },
    ]);
  });
});
