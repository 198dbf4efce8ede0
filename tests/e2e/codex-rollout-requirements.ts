/**
 * What the real Codex CLI (0.169.0) needs to parse each rollout line, measured against the binary rather
 * than guessed: a Cody rollout (tool call, reasoning, compaction, provider switch) had each field removed
 * in turn from every line of its kind, and Codex was asked to resume it with
 * `RUST_LOG=codex_rollout=trace`; a field is listed here when removing it made Codex report "failed to
 * parse rollout line". The kinds of `event_msg` and of line Codex knows are the ones its serde error
 * names (neither enum has a catch-all), and `response_item` takes any type (unknown ones are ignored).
 * Listing needs `session_meta.source` (`cli` or `vscode` are shown) and a `user_message` event.
 */

type Json = Record<string, unknown>;

/** Line types Codex 0.169 parses (its `RolloutItem`). */
export const CODEX_LINE_TYPES = [
  'session_meta',
  'dynamic_tools_updated',
  'response_item',
  'inter_agent_communication',
  'inter_agent_communication_metadata',
  'compacted',
  'turn_context',
  'token_usage_record',
  'world_state',
  'retained_context',
  'security_risk_score',
  'event_msg',
  'realtime_item',
];

/** The `event_msg` kinds Cody may write, each of which Codex 0.169 knows. */
export const CODEX_EVENT_KINDS_CODY_WRITES = ['token_count', 'user_message', 'warning', 'thread_rolled_back'];

const APPROVAL_POLICIES = ['untrusted', 'on-failure', 'on-request', 'never'];
const USAGE_FIELDS = [
  'input_tokens',
  'cached_input_tokens',
  'output_tokens',
  'reasoning_output_tokens',
  'total_tokens',
];

/** Fields Codex requires, by line kind (`type`, or `type:payload.type`). */
const REQUIRED: Record<string, string[]> = {
  session_meta: ['id', 'timestamp', 'cwd', 'originator', 'cli_version'],
  turn_context: ['cwd', 'model', 'approval_policy'],
  compacted: ['message'],
  'response_item:message': ['role', 'content'],
  'response_item:function_call': ['name', 'arguments', 'call_id'],
  'response_item:function_call_output': ['output'],
  'response_item:reasoning': ['summary'],
  'event_msg:user_message': ['message'],
  'event_msg:warning': ['message'],
  'event_msg:thread_rolled_back': ['num_turns'],
};

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Why Codex would refuse a line (empty when it would parse it), measured as described above. */
export function codexLineProblems(line: Json): string[] {
  const problems: string[] = [];
  const payload = isRecord(line.payload) ? line.payload : {};
  if (typeof line.timestamp !== 'string') problems.push('no timestamp');
  const type = String(line.type);
  if (!CODEX_LINE_TYPES.includes(type)) return [...problems, `line type ${type} is unknown to Codex`];
  if (type === 'event_msg' && !CODEX_EVENT_KINDS_CODY_WRITES.includes(String(payload.type)))
    problems.push(`event_msg ${String(payload.type)} is not one Codex parses the way Cody writes it`);
  const kind = type === 'response_item' || type === 'event_msg' ? `${type}:${String(payload.type)}` : type;
  for (const field of REQUIRED[kind] ?? []) {
    if (payload[field] === undefined) problems.push(`${kind} lacks ${field}`);
  }
  if (type === 'turn_context') {
    if (!APPROVAL_POLICIES.includes(String(payload.approval_policy)))
      problems.push(`approval_policy ${String(payload.approval_policy)} is not Codex's`);
    const sandbox = payload.sandbox_policy;
    if (!(isRecord(sandbox) && typeof sandbox.type === 'string') && payload.permission_profile === undefined)
      problems.push('turn_context lacks sandbox_policy (with its type) or permission_profile');
  }
  if (kind === 'event_msg:token_count' && payload.info !== null) {
    const info = isRecord(payload.info) ? payload.info : {};
    for (const key of ['total_token_usage', 'last_token_usage']) {
      const usage = info[key];
      if (!isRecord(usage)) problems.push(`token_count lacks info.${key}`);
      else
        for (const field of USAGE_FIELDS)
          if (typeof usage[field] !== 'number') problems.push(`token_count lacks info.${key}.${field}`);
    }
  }
  // Codex sends `reasoning` items back to the Responses API, which needs their `rs_` id.
  if (kind === 'response_item:reasoning' && typeof payload.id !== 'string')
    problems.push('reasoning without an id (Codex would send it to the Responses API, which refuses it)');
  return problems;
}

/** Why Codex's thread list would leave the conversation out (empty when it would show it). */
export function codexListProblems(lines: Json[]): string[] {
  const meta = lines[0];
  const problems: string[] = [];
  const payload = isRecord(meta?.payload) ? meta.payload : {};
  if (meta?.type !== 'session_meta') problems.push('the first line is not session_meta');
  if (!['cli', 'vscode'].includes(String(payload.source)))
    problems.push(`session_meta.source ${String(payload.source)} is not one Codex lists`);
  const userMessages = lines.filter(
    (line) => line.type === 'event_msg' && isRecord(line.payload) && line.payload.type === 'user_message',
  );
  if (userMessages.length === 0) problems.push('no user_message event (Codex lists threads by them)');
  return problems;
}
