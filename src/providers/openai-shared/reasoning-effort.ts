/**
 * Cody's reasoning level → OpenAI's `reasoning.effort` (Responses) and `reasoning_effort` (Chat
 * Completions). OpenAI's models differ in which efforts they take: GPT-5.1 and later take `none` but
 * not `minimal`, GPT-5 takes `minimal` but not `none`, the Codex snapshots and the o-series take only `low` to `high`.
 */
import type { ReasoningEffort } from 'openai/resources/shared';
import type { ReasoningLevel } from '../../protocol/index.js';

type OpenAIEffortFamily = 'gpt-5.1+' | 'gpt-5' | 'low-to-high';

function familyOf(model: string): OpenAIEffortFamily {
  const bare = model.toLowerCase().replace(/^.*\//, '');
  if (/codex/.test(bare) || /^o\d/.test(bare)) return 'low-to-high';
  if (/^gpt-5\.\d/.test(bare)) return 'gpt-5.1+';
  if (/^gpt-5/.test(bare)) return 'gpt-5';
  return 'low-to-high';
}

/**
 * The effort to send for `level`: `off` is `none` where the model takes it, else `minimal`, else the
 * lowest it takes (`low`: the o-series and Codex snapshots cannot stop reasoning); `minimal` is GPT-5's
 * alone and becomes `low` elsewhere.
 */
export function openAIReasoningEffort(level: ReasoningLevel, model: string): ReasoningEffort {
  const family = familyOf(model);
  switch (level) {
    case 'off':
      return family === 'gpt-5.1+' ? 'none' : family === 'gpt-5' ? 'minimal' : 'low';
    case 'minimal':
      return family === 'gpt-5' ? 'minimal' : 'low';
    default:
      return level;
  }
}
