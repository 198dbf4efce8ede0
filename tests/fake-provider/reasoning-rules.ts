/**
 * The rules the real APIs apply to reasoning parameters and to reasoning sent back, each with the API's
 * own wording where it is documented: a request the real service would refuse is refused here too.
 */
import type { ProtocolRequest } from './types.js';

type Json = Record<string, unknown>;

const OPENAI_EFFORTS: Record<string, string[]> = {
  'gpt-5.1+': ['none', 'low', 'medium', 'high'],
  'gpt-5': ['minimal', 'low', 'medium', 'high'],
  'low-to-high': ['low', 'medium', 'high'],
};

/** Which efforts an OpenAI reasoning model takes; undefined for a model without reasoning. */
function openAIEfforts(model: string): string[] | undefined {
  if (!/^(o\d|gpt-5)/.test(model) || /-chat/.test(model)) return undefined;
  if (/codex/.test(model) || /^o\d/.test(model)) return OPENAI_EFFORTS['low-to-high'];
  return /^gpt-5\.\d/.test(model) ? OPENAI_EFFORTS['gpt-5.1+'] : OPENAI_EFFORTS['gpt-5'];
}

/** An OpenAI effort problem: [message, param, code], or undefined when the effort is accepted. */
export function openAIEffortProblem(
  model: string,
  effort: unknown,
  param: string,
): [string, string, string] | undefined {
  if (effort === undefined) return undefined;
  const accepted = openAIEfforts(model);
  if (!accepted)
    return [
      `Unsupported parameter: '${param}' is not supported with this model.`,
      param,
      'unsupported_parameter',
    ];
  if (!accepted.includes(String(effort))) {
    const list = accepted.map((value) => `'${value}'`);
    return [
      `Unsupported value: '${param}' does not support '${String(effort)}' with this model. Supported values are: ${list.slice(0, -1).join(', ')}, and ${list.at(-1)}.`,
      param,
      'unsupported_value',
    ];
  }
  return undefined;
}

/** DeepSeek V4's 400 when a tool-calling assistant message's reasoning is missing (its API's wording). */
export const DEEPSEEK_REASONING_MISSING =
  'The reasoning_content in the thinking mode must be passed back to the API.';

/**
 * DeepSeek's reasoning rules. Its V4 thinking models (`deepseek-flash`, `deepseek-v4-*`, and the retired
 * alias `deepseek-reasoner`, V4 Flash thinking) with thinking not disabled: every assistant message with tool calls, in any turn, must carry
 * its `reasoning_content`. The older R1 (`deepseek-r1`, as other servers serve it) wants it on the current
 * turn's tool-call messages and refuses it on an earlier turn's.
 */
export function deepSeekReasoningProblem(
  model: string,
  messages: readonly Json[],
  thinking?: unknown,
): string | undefined {
  const calls = (message: Json): boolean =>
    Array.isArray(message.tool_calls) && message.tool_calls.length > 0;
  if (/^deepseek-(flash|v4-|reasoner)/.test(model)) {
    if ((thinking as Json | undefined)?.type === 'disabled') return undefined;
    const missing = messages.some(
      (message) =>
        message.role === 'assistant' && calls(message) && typeof message.reasoning_content !== 'string',
    );
    return missing ? DEEPSEEK_REASONING_MISSING : undefined;
  }
  if (!/^deepseek-r1/.test(model)) return undefined;
  const lastUser = messages.findLastIndex((message) => message.role === 'user');
  for (const [index, message] of messages.entries()) {
    if (message.role !== 'assistant') continue;
    const hasReasoning = typeof message.reasoning_content === 'string';
    if (index > lastUser && calls(message) && !hasReasoning)
      return `Missing \`reasoning_content\` field in the assistant message at message index ${index}`;
    if (index < lastUser && hasReasoning)
      return `The \`reasoning_content\` field is not accepted in the assistant message at message index ${index} of an earlier turn`;
  }
  return undefined;
}

/**
 * DeepSeek's `reasoning_effort`: `low`, `high` or `max`, with minimal taken as low, medium and xhigh as
 * high, ultra as max (https://api-docs.deepseek.com/guides/thinking_mode); a 400 otherwise.
 */
export function deepSeekEffortProblem(model: string, effort: unknown): string | undefined {
  if (!/^deepseek-(flash|v4-|reasoner)/.test(model) || effort === undefined) return undefined;
  return ['minimal', 'low', 'medium', 'high', 'xhigh', 'max', 'ultra'].includes(String(effort))
    ? undefined
    : `Invalid reasoning_effort: ${String(effort)}. Supported values are low, high and max.`;
}

function blocksOf(message: Json | undefined): Json[] {
  return Array.isArray(message?.content) ? (message.content as Json[]) : [];
}

/** Claude models that think only adaptively: Opus 4.7 and later, the 5.x lines, Fable and Mythos. */
const CLAUDE_ADAPTIVE_ONLY = /claude-(opus-4-[78]|opus-5|sonnet-5|haiku-5|fable|mythos)/;
/** Those that take adaptive thinking at all (4.6 too, beside its deprecated budget). */
const CLAUDE_ADAPTIVE = /claude-(opus-4-[6-9]|sonnet-4-6|opus-5|sonnet-5|haiku-5|fable|mythos)/;
/** Those refusing `disabled`: thinking always on (Opus 5.5, Fable, Mythos), Opus 4.7, and Sonnet 5.5. */
const CLAUDE_NO_DISABLED = /claude-(opus-4-7|opus-5-5|sonnet-5-5|fable|mythos)/;
/** The one taking `between_tools` (which replaces `disabled` on it). */
const CLAUDE_BETWEEN_TOOLS = /claude-sonnet-5-5/;
const CLAUDE_EFFORTS = ['low', 'medium', 'high', 'xhigh', 'max'];

/** Anthropic's 400 for a thinking type the model refuses (its wording, from the Opus 5.5 migration guide). */
export function claudeThinkingTypeRefusal(type: string): string {
  return `"thinking.type.${type}" is not supported for this model. Use "thinking.type.adaptive" and "output_config.effort" to control thinking behavior.`;
}

/**
 * Which thinking types and efforts a Claude model takes (Anthropic's API and Bedrock's pass-through alike):
 * a budget on an adaptive-only model, `disabled` where thinking cannot be turned off, and so on.
 */
export function claudeThinkingTypeProblem(
  model: string,
  thinking: Json | undefined,
  outputConfig: Json | undefined,
): string | undefined {
  const id = model.toLowerCase();
  const type = thinking === undefined ? undefined : String(thinking.type);
  const refused =
    (type === 'enabled' && CLAUDE_ADAPTIVE_ONLY.test(id)) ||
    (type === 'disabled' && CLAUDE_NO_DISABLED.test(id)) ||
    (type === 'adaptive' && !CLAUDE_ADAPTIVE.test(id)) ||
    (type === 'between_tools' && !CLAUDE_BETWEEN_TOOLS.test(id));
  if (refused) return claudeThinkingTypeRefusal(String(type));
  const effort = outputConfig?.effort;
  if (effort !== undefined && !CLAUDE_EFFORTS.includes(String(effort)))
    return `output_config.effort: Input should be 'low', 'medium', 'high', 'xhigh' or 'max'`;
  return undefined;
}

/**
 * Anthropic's thinking rules: the thinking type and effort the model takes, then a budget's (budget,
 * max_tokens, temperature, the tool loop's thinking).
 */
export function anthropicThinkingProblem(request: ProtocolRequest): string | undefined {
  const thinking = request.body.thinking as Json | undefined;
  const typeProblem = claudeThinkingTypeProblem(
    String(request.body.model),
    thinking,
    request.body.output_config as Json | undefined,
  );
  if (typeProblem) return typeProblem;
  if (thinking === undefined || thinking.type !== 'enabled') return undefined;
  const budget = Number(thinking.budget_tokens);
  if (!(budget >= 1024))
    return 'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024';
  if (budget >= Number(request.body.max_tokens))
    return '`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size';
  const temperature = request.body.temperature;
  if (temperature !== undefined && temperature !== 1)
    return '`temperature` may only be set to 1 when thinking is enabled. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#important-considerations-when-using-extended-thinking';
  if (request.body.top_k !== undefined)
    return '`top_k` is not supported when thinking is enabled. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#feature-compatibility';
  const messages = Array.isArray(request.body.messages) ? (request.body.messages as Json[]) : [];
  const last = messages.at(-1);
  const assistantIndex = messages.length - 2;
  const assistant = messages[assistantIndex];
  if (last?.role !== 'user' || assistant?.role !== 'assistant') return undefined;
  if (!blocksOf(last).some((block) => block.type === 'tool_result')) return undefined;
  const first = blocksOf(assistant)[0];
  if (first?.type === 'thinking' || first?.type === 'redacted_thinking') return undefined;
  return `messages.${assistantIndex}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${String(first?.type)}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking`;
}

/**
 * The thinking levels a Gemini 3+ model takes: 3 Pro low and high, 3.1 Pro low to high, Flash-Lite and
 * Flash up to 3.6 minimal to high, 3.7 Flash and later and 4 Argon no minimal.
 */
function geminiLevels(model: string): string[] {
  if (/^gemini-3-pro|^gemini-pro-latest/.test(model)) return ['LOW', 'HIGH'];
  if (/^gemini-3\.1-pro/.test(model)) return ['LOW', 'MEDIUM', 'HIGH'];
  if (/flash-lite|^gemini-3(\.[0-6])?-flash/.test(model)) return ['MINIMAL', 'LOW', 'MEDIUM', 'HIGH'];
  return ['LOW', 'MEDIUM', 'HIGH'];
}

/** Gemini's thinkingConfig rules per model generation. */
export function geminiThinkingProblem(
  model: string | undefined,
  config: Json | undefined,
): string | undefined {
  const thinking = config?.thinkingConfig as Json | undefined;
  if (thinking === undefined || model === undefined) return undefined;
  if (!/^gemini-(2\.5|[3-9]|(pro|flash|flash-lite)-latest)/.test(model))
    return 'Thinking is not supported for this model.';
  const budget = thinking.thinkingBudget;
  const level = thinking.thinkingLevel;
  if (budget !== undefined && level !== undefined)
    return 'You can only set only one of thinking budget and thinking level.';
  if (/^gemini-2\.5/.test(model) && level !== undefined)
    return 'Thinking level is not supported for this model.';
  if (/^gemini-2\.5-pro/.test(model) && budget === 0)
    return 'Budget 0 is invalid. This model only works in thinking mode.';
  if (/^gemini-([3-9]|(pro|flash|flash-lite)-latest)/.test(model) && level !== undefined) {
    if (!geminiLevels(model).includes(String(level).toUpperCase()))
      return `Thinking level ${String(level)} is not supported for this model.`;
  }
  return undefined;
}
