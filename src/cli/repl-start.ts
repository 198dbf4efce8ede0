/**
 * How the REPL starts: the conversation it opens first (a new one is written only at its first message,
 * and opened once the prompt is on screen) and the banner above the prompt.
 */
import { resolveSelection } from '../core/index.js';
import type { Conversation } from '../core/index.js';
import { approvalFromFlags } from './approval-flag.js';
import type { ChatOptions } from './commands/chat.js';
import type { CommandContext } from './context.js';
import { conversationChoice, hasChoice } from './conversation-choice.js';
import type { Io } from './io.js';
import { stderrChalk } from './color.js';
import { layoutBlock } from './layout/layout.js';

/**
 * The conversation the REPL starts on: `chosen`, else a new one (a draft: written at its first message,
 * so quitting before one leaves nothing behind). `open()` opens it, once (session module, rollout reader,
 * tool runtime): the REPL calls it after the prompt is drawn, or at once when the banner needs it.
 * `failed` resolves with the error when opening fails (a corrupt rollout), so the prompt ends at once.
 */
export function firstConversation(
  context: CommandContext,
  options: ChatOptions,
  chosen: string | undefined,
  configure: (conversation: Conversation) => Conversation,
): { id: string; open: () => Promise<Conversation>; failed: Promise<unknown> } {
  const fresh = chosen === undefined ? context.cody.draft({ activate: true }) : undefined;
  const id = chosen ?? fresh?.id ?? '';
  let failOpen: (error: unknown) => void = () => undefined;
  const failed = new Promise<unknown>((resolve) => (failOpen = resolve));
  let opening: Promise<Conversation> | undefined;
  const open = (): Promise<Conversation> => {
    if (opening !== undefined) return opening;
    opening = (fresh ? fresh.open() : context.cody.open(id)).then((conversation) => {
      configure(conversation);
      // --provider, --api, --model: for this first conversation only.
      if (hasChoice(options))
        conversation.setSelection(conversationChoice(context.config, conversation.status(), options));
      return conversation;
    });
    opening.catch(failOpen);
    return opening;
  };
  return { id, open, failed };
}

/**
 * The banner of the conversation the REPL starts on; returns the approval policy it shows. A resumed
 * conversation (its own policy) or one given --model/--provider/--api is known once it is open.
 */
export async function showBanner(
  initialContext: CommandContext,
  options: ChatOptions,
  io: Io,
  chosen: string | undefined,
  id: string,
  opening: () => Promise<Conversation>,
): Promise<string | undefined> {
  const flagged = approvalFromFlags(options) !== undefined;
  const starting = await initialContext.cody.startingApproval();
  const opened =
    chosen !== undefined || hasChoice(options)
      ? await opening().then(
          (conversation) => conversation.status(),
          () => undefined,
        )
      : undefined;
  const policy =
    chosen !== undefined && !flagged ? (opened?.approvalPolicy ?? starting.policy) : starting.policy;
  const unconfined = policy === 'full-auto' ? await starting.unconfined() : undefined;
  const selection = opened ?? resolveSelection(initialContext.config);
  printBanner(io, stderrChalk(io), selection, id, policy, flagged, unconfined);
  return policy;
}

/**
 * The first lines: provider, model, conversation and the approval policy in force (a flag's full-auto
 * is for this run only); without a sandbox, full-auto says so for as long as it holds, not once.
 */
function printBanner(
  io: Io,
  color: ReturnType<typeof stderrChalk>,
  selection: { provider: string; model: string },
  id: string,
  policy: string | undefined,
  flagged: boolean,
  unconfined: string | undefined,
): void {
  const approval =
    policy === undefined
      ? 'no tools'
      : `approval ${policy}${flagged && policy === 'full-auto' ? ' (--approval: this run only)' : ''}`;
  const width = io.stderr.columns ?? 80;
  const banner = `Cody · ${selection.provider}/${selection.model} · conversation ${id} · ${approval} · /help for commands`;
  io.stderr.write(`${layoutBlock(color.dim(banner), width, '  ')}\n`);
  if (unconfined !== undefined) io.stderr.write(`${layoutBlock(color.yellow(`⚠ ${unconfined}`), width)}\n`);
}
