/**
 * Shared by the front-end parity matrix (issue 20): what one run of a scripted turn left behind (the
 * requests the fake provider recorded, their credentials, the rollout lines), with ids, timestamps and
 * durations made comparable across front ends, and the readers its rows check with.
 */
import type { FakeApi } from '../fake-provider/types.js';
import type { Harness } from './harness.js';

const ID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g;
/** Elapsed times and the like in tool outputs ("Wall time: 0.51 s"). */
const DURATION = /\b\d+(\.\d+)?\s?(ms|s|seconds)\b/g;
/** A hook's run time in its rollout line (`"duration_ms":6`). */
const DURATION_MS = /"duration_ms":\d+/g;

/** The fake provider's item and response ids (`msg_fake00011a…`), numbered per server. */
const FAKE_ID = /\b([a-z]+)_fake[0-9a-f]+\b/g;

export function normalized(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value)
      .replace(ID, '<id>')
      .replace(TIME, '<time>')
      .replace(DURATION, '<duration>')
      .replace(DURATION_MS, '"duration_ms":0')
      .replace(FAKE_ID, '$1_<fake>'),
  );
}

export interface Run {
  requests: unknown[];
  rollout: unknown[];
  /** Each request's credentials: its `authorization` and `chatgpt-account-id` headers. */
  credentials: Array<{ authorization?: string; account?: string }>;
}

/** The run of conversation `id`: the requests recorded since the last reset (then reset) and its rollout. */
export async function collectRun(harness: Harness, id: string, api: FakeApi = 'openai-chat'): Promise<Run> {
  const recorded = harness.server.modelRequests(api);
  const requests = recorded.map((request) => request.body);
  const credentials = recorded.map(({ headers }) => ({
    ...(headers.authorization !== undefined ? { authorization: headers.authorization } : {}),
    ...(typeof headers['chatgpt-account-id'] === 'string' ? { account: headers['chatgpt-account-id'] } : {}),
  }));
  harness.server.reset();
  const lines = await harness.rollout(id);
  return {
    requests: normalized(requests) as unknown[],
    rollout: normalized(lines.map((line) => JSON.parse(line) as unknown)) as unknown[],
    credentials,
  };
}

/** The tool outputs a request carries, by call id (Chat Completions `tool` messages, Responses items). */
export function toolOutputs(request: unknown): Record<string, string> {
  const body = request as {
    messages?: Array<{ role: string; tool_call_id?: string; content: string }>;
    input?: Array<{ type?: string; call_id?: string; output?: string }>;
  };
  const chat = (body.messages ?? []).filter((m) => m.role === 'tool').map((m) => [m.tool_call_id, m.content]);
  const responses = (body.input ?? [])
    .filter((item) => item.type === 'function_call_output')
    .map((item) => [item.call_id, item.output]);
  return Object.fromEntries([...chat, ...responses].map(([id, text]) => [id ?? '', text ?? '']));
}

/** The tool names a Chat Completions request offers the model. */
export function toolNames(request: unknown): string[] {
  const body = request as { tools?: Array<{ function?: { name?: string } }> };
  return (body.tools ?? []).map((tool) => tool.function?.name ?? '');
}
