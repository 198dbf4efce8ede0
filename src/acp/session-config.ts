/**
 * What a session offers the editor to choose: the approval policies as modes, and the config options
 * (approval, model, reasoning), read from the conversation's status; and the commands it announces.
 */
import type { AvailableCommand, SessionConfigOption, SessionModeState } from '@agentclientprotocol/sdk';
import { RequestError } from '@agentclientprotocol/sdk';
import { isProvider, providerSettings, type Conversation } from '../core/index.js';
import type { ApprovalPolicy, ReasoningLevel } from './core-types.js';

const MODES: ReadonlyArray<{ id: ApprovalPolicy; name: string; description: string }> = [
  { id: 'read-only', name: 'Read only', description: 'Reads and searches; anything else is declined.' },
  { id: 'ask', name: 'Ask', description: 'Asks before edits and commands that are not known safe.' },
  { id: 'auto-edit', name: 'Auto edit', description: 'Edits workspace files unasked; asks before commands.' },
  {
    id: 'full-auto',
    name: 'Full auto',
    description: 'Runs edits and commands unasked, commands inside the sandbox.',
  },
];
const REASONING: readonly ReasoningLevel[] = ['off', 'minimal', 'low', 'medium', 'high'];
/** The reasoning option's value while the conversation keeps each API's default. */
const DEFAULT_REASONING = 'default';

export function isApprovalPolicy(value: string): value is ApprovalPolicy {
  return MODES.some((mode) => mode.id === value);
}

export function modeState(conversation: Conversation): SessionModeState {
  return {
    currentModeId: conversation.keptApprovalPolicy().policy,
    availableModes: MODES.map(({ id, name, description }) => ({ id, name, description })),
  };
}

export function configOptions(conversation: Conversation): SessionConfigOption[] {
  const status = conversation.status();
  const known = isProvider(status.provider) ? (providerSettings(status.provider).knownModels ?? []) : [];
  const models = [...new Set([status.model, ...known])];
  const reasoning = status.reasoning ?? DEFAULT_REASONING;
  return [
    {
      id: 'mode',
      name: 'Approval',
      category: 'mode',
      type: 'select',
      currentValue: conversation.keptApprovalPolicy().policy,
      options: MODES.map(({ id, name, description }) => ({ value: id, name, description })),
    },
    {
      id: 'model',
      name: 'Model',
      category: 'model',
      type: 'select',
      currentValue: status.model,
      options: models.map((model) => ({ value: model, name: model })),
    },
    {
      id: 'reasoning',
      name: 'Reasoning',
      category: 'thought_level',
      type: 'select',
      currentValue: reasoning,
      options: [
        ...(reasoning === DEFAULT_REASONING ? [{ value: DEFAULT_REASONING, name: 'Default' }] : []),
        ...REASONING.map((level) => ({ value: level, name: level })),
      ],
    },
  ];
}

/** Applies one config option; refuses an unknown option or value (invalid params). */
export function setConfigOption(conversation: Conversation, configId: string, value: unknown): void {
  if (typeof value !== 'string')
    throw RequestError.invalidParams(undefined, `'${configId}' takes a value id`);
  if (configId === 'mode') {
    if (!isApprovalPolicy(value)) throw RequestError.invalidParams(undefined, `unknown mode '${value}'`);
    conversation.setApprovalPolicy(value);
  } else if (configId === 'model') {
    const { provider } = conversation.status();
    conversation.setSelection({
      provider: provider as Parameters<Conversation['setSelection']>[0]['provider'],
      model: value,
    });
  } else if (configId === 'reasoning') {
    const level = REASONING.find((candidate) => candidate === value);
    if (level === undefined)
      throw RequestError.invalidParams(undefined, `unknown reasoning level '${value}'`);
    conversation.setReasoning(level);
  } else {
    throw RequestError.invalidParams(undefined, `unknown config option '${configId}'`);
  }
}

/** The commands the editor offers after `/`: the built-in compact, and the prompt commands that can run. */
export async function availableCommands(conversation: Conversation): Promise<AvailableCommand[]> {
  const prompts = await conversation.promptCommands();
  return [
    {
      name: 'compact',
      description: 'Summarize the conversation so far to free context',
      input: { hint: 'what to keep (optional)' },
    },
    {
      name: 'undo',
      description: 'Take back what the last turn that changed files did (files changed since are kept)',
      input: { hint: 'how many turns (default 1)' },
    },
    ...prompts
      .filter((command) => command.refused === undefined && !['compact', 'undo'].includes(command.name))
      .map((command) => ({
        name: command.name,
        description: command.description ?? `Run the ${command.scope} prompt /${command.name}`,
        input: { hint: 'arguments (optional)' },
      })),
  ];
}
