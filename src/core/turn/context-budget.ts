/** How much of the context window the live history takes, and whether it must be compacted first. */
import { autoCompactLimit } from '../compact/index.js';
import { type CodyConfig, DEFAULT_COMPACT_THRESHOLD, type Selection } from '../config/index.js';
import type { ModelLimits } from '../selection/index.js';
import { createTokenEstimator } from '../tokens/index.js';
import type { ToolRuntime } from '../tools/index.js';
import type { ConversationHandle } from '../conversation/index.js';

/**
 * Below this share of the auto-compact limit the heuristic estimate decides alone: it never undercounts
 * by more than 10%, so a history estimated under 90% of the limit is under the limit for certain.
 */
const EXACT_COUNT_BAND = 0.9;

export class ContextBudget {
  constructor(
    private readonly handle: ConversationHandle,
    private readonly config: () => CodyConfig,
    private readonly tools: ToolRuntime | undefined,
  ) {}

  /**
   * Tokens the next request will occupy: the accountant's figure, plus the tool definitions when no
   * provider report (which would include them) underlies it. The one figure every report uses.
   */
  contextTokens(): number {
    const { accountant } = this.handle;
    const history = accountant.estimateHistory(this.handle.history);
    if (accountant.hasReport) return history;
    const specs = this.tools?.specs() ?? [];
    return history + (specs.length > 0 ? accountant.estimator.countText(JSON.stringify(specs)) : 0);
  }

  limitFor(limits: ModelLimits): number {
    const compact = this.config().compact;
    return autoCompactLimit({
      contextWindow: limits.contextWindow,
      maxOutputTokens: limits.maxOutputTokens,
      threshold: compact?.threshold ?? DEFAULT_COMPACT_THRESHOLD,
      ...(compact?.tokenLimit !== undefined ? { tokenLimit: compact.tokenLimit } : {}),
    });
  }

  /** Whether the history must be compacted before the next request (exact counting near the limit). */
  async overLimit(selection: Selection, limits: ModelLimits): Promise<boolean> {
    if (this.config().compact?.auto === false) return false;
    const limit = this.limitFor(limits);
    const { accountant } = this.handle;
    // Images are priced by the API the next request goes to.
    if (accountant.estimator.imageApi !== selection.api)
      accountant.setEstimator(
        await createTokenEstimator({ ...selection, exact: accountant.estimator.kind !== 'heuristic' }),
      );
    let estimate = this.contextTokens();
    if (estimate < EXACT_COUNT_BAND * limit) return false;
    if (accountant.estimator.kind === 'heuristic') {
      const exact = await createTokenEstimator({ api: selection.api, model: selection.model, exact: true });
      if (exact.kind !== 'heuristic') {
        accountant.setEstimator(exact);
        estimate = this.contextTokens();
      }
    }
    return estimate >= limit;
  }
}
