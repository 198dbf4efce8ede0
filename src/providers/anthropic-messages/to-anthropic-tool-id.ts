/** Tool-use ids Anthropic accepts: `^[a-zA-Z0-9_-]+$`. */
const VALID_TOOL_ID = /^[a-zA-Z0-9_-]+$/;

/**
 * Longest id sent. Anthropic documents no limit, but ids from other APIs can be long (Responses `fc_…`
 * plus a suffix); 128 keeps well inside what every Claude model has accepted.
 */
export const MAX_ANTHROPIC_TOOL_ID_LENGTH = 128;

/**
 * The `tool_use` id (and matching `tool_result.tool_use_id`) for a canonical `call_id`. Ids Anthropic
 * accepts pass unchanged, so Claude's own `toolu_…` ids round-trip exactly. Others (Gemini ids with dots,
 * ids with `:` or `/` from OpenAI-compatible servers) get their invalid characters replaced and a hash
 * of the original appended, so two ids that differ only in a replaced character stay distinct. Pure and
 * deterministic: the call and its output, converted separately, always agree.
 */
export function toAnthropicToolId(callId: string): string {
  if (VALID_TOOL_ID.test(callId) && callId.length <= MAX_ANTHROPIC_TOOL_ID_LENGTH) return callId;
  const suffix = `_${fnv1a(callId)}`;
  const cleaned = callId
    .replace(/[^a-zA-Z0-9_-]/g, '_')
    .slice(0, MAX_ANTHROPIC_TOOL_ID_LENGTH - suffix.length);
  return `${cleaned === '' ? 'call' : cleaned}${suffix}`;
}

/** 32-bit FNV-1a of the UTF-16 code units, in base 36: short, stable, and no `node:crypto` to load. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}
