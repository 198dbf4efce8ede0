/**
 * How a `Session` runs one user turn or one compaction: takes the conversation's lock, builds what the
 * turn's steps need (the client before anything is recorded, so a missing key fails cleanly), runs the
 * turn loop, and whatever happens ends the turn recorded and the state machine back to Idle.
 */
import { randomUUID } from 'node:crypto';
import type { ContentPart, ReasoningLevel } from '../../protocol/index.js';
import { createModelClient } from '../../providers/index.js';
import type { ApprovalDesk } from '../turn/index.js';
import type { ConversationHandle } from './conversation-handle.js';
import {
  type CompactionReport,
  type ContextBudget,
  runCompaction,
  runTurn,
  type TurnContext,
  type TurnStateMachine,
  unusableReasoningWarning,
  type HookSessionState,
} from '../turn/index.js';
import type { CodyConfig, Provider } from '../config/index.js';
import { endpointOf } from '../auth/index.js';
import {
  acceptsImages,
  isReasoningModel,
  listedLimits,
  lookupModelLimits,
  reasoningSupport,
  tokenWindowPhrase,
  type ResolvedSelection,
} from '../selection/index.js';
import { CodyError } from '../errors.js';
import type { ApprovalPolicy } from '../tools/index.js';
import { checkImagesFor } from '../images/index.js';
import { knownSecrets, type Matchers, redactText, replaceSecrets } from '../redact/index.js';
import type { ProjectInstructions } from '../project/index.js';
import { expandMessage, type PromptSource } from './prompt-expansion.js';
import type { SessionOptions, SubmitOptions } from './session-options.js';
import type { SessionEvent } from './session-events.js';

/** The session's parts a turn works with; read at the moment they are needed. */
export interface SessionParts {
  readonly options: SessionOptions;
  /** The configuration in force: read again (`options.readConfig`) as each turn or compaction begins. */
  config: CodyConfig;
  readonly handle: ConversationHandle;
  readonly budget: ContextBudget;
  readonly states: TurnStateMachine;
  readonly approvals: ApprovalDesk;
  readonly matchers: Matchers;
  /** Models already warned about in this session that they cannot use the reasoning level. */
  readonly reasoningWarned: Set<string>;
  readonly prompts: PromptSource;
  readonly hookState: HookSessionState;
  selection(): ResolvedSelection;
  reasoningLevel(): ReasoningLevel | undefined;
  setReasoning(level: string): unknown;
  keptPolicy(): ApprovalPolicy;
  projectInstructions(): Promise<ProjectInstructions>;
}

/** One user turn; throws a `CodyError` when the turn cannot complete (after recording why). */
export async function* runSessionTurn(
  parts: SessionParts,
  input: string | ContentPart[],
  submitOptions: SubmitOptions,
): AsyncGenerator<SessionEvent> {
  const { options, handle, states } = parts;
  if (submitOptions.reasoning !== undefined) parts.setReasoning(submitOptions.reasoning);
  // A `/name` message is the user's own command, expanded; an unknown one is never sent.
  const message = await expandMessage(input, parts.prompts);
  // MCP servers connect (and list their tools) before the first request that offers them.
  await options.tools?.prepare?.();
  const release = await handle.lock();
  try {
    await rereadConfig(parts);
    // Secrets learnt since the conversation opened (a sign-in refreshed, a key stored) count from here.
    const known = await knownSecrets(options.env, options.manager.paths.home);
    replaceSecrets(parts.matchers, [...known, ...(options.secrets ?? [])]);
    // Read at every turn: an edit applies at once.
    const instructions = await parts.projectInstructions();
    const turn = await buildTurnContext(parts, submitOptions.signal, instructions);
    const { selection } = turn;
    const content: ContentPart[] =
      typeof message === 'string' ? [{ type: 'input_text', text: message }] : message;
    // Before the turn starts: a model or API that cannot take the images gets nothing at all.
    checkImagesFor(content, {
      api: selection.api,
      model: selection.model,
      acceptsImages: acceptsImages(selection.model, parts.config),
    });
    const turnId = randomUUID();
    yield {
      type: 'turn-started',
      turnId,
      provider: selection.provider,
      api: selection.api,
      model: selection.model,
    };
    yield* turnWarnings(parts, turn, instructions.warnings);
    yield* runTurn(turn, turnId, content);
  } catch (error) {
    yield* states.finish(isInterrupted(error) ? 'Interrupted' : 'PermanentFailure');
    throw error;
  } finally {
    // The consumer stopped reading (or a bug): the turn still ends recorded, as interrupted, and the
    // state machine returns to Idle (its events have no reader any more), so the next submit runs.
    states.finish('Interrupted');
    await handle.closeOpenTurn('interrupted');
    parts.approvals.abortAll();
    await handle.close();
    await release();
  }
}

/** Compaction on request, even when the window is already overflowing. */
export async function* runSessionCompaction(
  parts: SessionParts,
  focus: string | undefined,
  signal: AbortSignal | undefined,
): AsyncGenerator<SessionEvent, CompactionReport> {
  const { handle, states } = parts;
  const release = await handle.lock();
  try {
    await rereadConfig(parts);
    const turn = await buildTurnContext(parts, signal, await parts.projectInstructions());
    for (const message of turn.hooks?.refresh() ?? []) yield { type: 'warning', message };
    const report = yield* runCompaction(turn, {
      trigger: 'manual',
      ...(focus !== undefined ? { focus } : {}),
    });
    if (handle.saveFailure) throw handle.saveFailure;
    const idle = states.to('Idle');
    if (idle) yield idle;
    return report;
  } catch (error) {
    yield* states.finish(isInterrupted(error) ? 'Interrupted' : 'PermanentFailure');
    throw error;
  } finally {
    await handle.close();
    await release();
  }
}

/**
 * What the turn tells before it starts: rollout read warnings, instruction files not read, an unusable
 * reasoning level, an unknown model.
 */
function* turnWarnings(
  parts: SessionParts,
  turn: TurnContext,
  instructionWarnings: readonly string[],
): Generator<SessionEvent> {
  const { selection, limits } = turn;
  for (const message of parts.handle.takeReadWarnings()) yield { type: 'warning', message };
  for (const message of instructionWarnings) yield { type: 'warning', message };
  // Project hooks skipped as untrusted (or unusable) are said, once each, on every front end.
  for (const message of turn.hooks?.refresh() ?? []) yield { type: 'warning', message };
  const unusable = parts.reasoningWarned.has(selection.model)
    ? undefined
    : unusableReasoningWarning(
        selection.model,
        turn.reasoning,
        reasoningSupport(selection.model, parts.config),
      );
  if (unusable !== undefined) {
    parts.reasoningWarned.add(selection.model);
    yield { type: 'warning', message: unusable };
  }
  if (limits.source === 'default' && parts.handle.lastModel !== selection.model) {
    yield {
      type: 'warning',
      message: `Model '${selection.model}' is not in Cody's catalogue: assuming ${tokenWindowPhrase(limits.contextWindow)} context window. Set models.${selection.model}.contextWindow in config.json to change it.`,
    };
  }
}

/** The address the turn's client calls, to name it when nothing answers there (none when unknown). */
function endpointField(
  selection: { provider: Provider; baseUrl?: string },
  env: Readonly<Record<string, string | undefined>>,
): { endpoint?: string } {
  try {
    const endpoint = endpointOf(selection.provider, selection.baseUrl, env);
    return endpoint !== undefined ? { endpoint } : {};
  } catch {
    return {};
  }
}

/** Everything a turn's steps need; the client is built before anything is recorded (a missing key fails cleanly). */
async function buildTurnContext(
  parts: SessionParts,
  signal: AbortSignal | undefined,
  instructions: ProjectInstructions,
): Promise<TurnContext> {
  const { options, config } = parts;
  const selection = parts.selection();
  const factory = options.clientFactory ?? createModelClient;
  const { clientCredentials } = await import('../auth/resolve-credentials.js');
  const reasoning = parts.reasoningLevel();
  // The level reaches only a model that takes its API's control: any other would answer 400.
  const effort = reasoningSupport(selection.model, config).effort ? reasoning : undefined;
  const client = await factory({
    api: selection.api,
    model: selection.model,
    env: options.env,
    ...(selection.baseUrl ? { baseUrl: selection.baseUrl } : {}),
    ...(await clientCredentials(selection, options.env, options.manager.paths.home)),
    // Only reasoning models are asked for encrypted reasoning (others answer 400).
    reasoning: isReasoningModel(selection.model, config),
    ...(effort !== undefined ? { reasoningEffort: effort } : {}),
  });
  const redact = (text: string): string => redactText(text, parts.matchers);
  const hooks = options.hooks;
  return {
    ...(hooks
      ? {
          hooks,
          hookState: parts.hookState,
          hookCommon: {
            session_id: parts.handle.id,
            transcript_path: parts.handle.filePath,
            cwd: options.cwd,
            permission_mode: options.tools?.permissions?.().approvalPolicy ?? 'none',
          },
        }
      : {}),
    handle: parts.handle,
    cwd: options.cwd,
    config,
    selection,
    ...endpointField(selection, options.env),
    limits: lookupModelLimits(
      selection.model,
      config,
      listedLimits(options.manager.paths.home, selection, selection.model),
    ),
    client,
    budget: parts.budget,
    states: parts.states,
    tools: options.tools,
    approvals: parts.approvals,
    approvalTimeoutMs: options.approvalTimeoutMs ?? 0,
    keptApprovalPolicy: parts.keptPolicy(),
    canAsk: typeof options.canAsk === 'function' ? options.canAsk : options.canAsk === true,
    signal,
    redact,
    ...(reasoning !== undefined ? { reasoning } : {}),
    // A tool can write a key into AGENTS.md: the instructions reach the model redacted like its output.
    ...(instructions.text !== undefined ? { instructions: redact(instructions.text) } : {}),
  };
}

/** config.json as it is now (an edit since the last turn applies to this one). */
async function rereadConfig(parts: SessionParts): Promise<void> {
  if (parts.options.readConfig) parts.config = await parts.options.readConfig();
}

function isInterrupted(error: unknown): boolean {
  return error instanceof CodyError && error.kind === 'interrupted';
}
