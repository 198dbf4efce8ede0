import type { ResponseItem } from '../../protocol/index.js';
import { UsageError } from '../../core/index.js';
import { ExitCode } from '../exit-codes.js';
import type { TranscriptEntry } from '../../core/index.js';
import { noSandboxWarning } from '../../core/index.js';
import { wireApiOf } from '../../core/index.js';
import { createContext } from '../context.js';
import type { Io } from '../io.js';
import { sanitizeForTerminal, terminalSafeJson } from '../sanitize.js';
import { formatTokens } from '../turn-view/wording.js';
import { instructionsLines } from '../instructions-view.js';
import { isInstructionsMessage } from '../../core/index.js';

export interface ShowOptions {
  id?: string | undefined;
  summary?: boolean;
  status?: boolean;
  json?: boolean;
}

/** `cody show [id]`: the whole transcript (compactions marked), its latest summary, or its status. */
export async function runShow(options: ShowOptions, io: Io): Promise<number> {
  const context = await createContext(io, { create: false });
  const id = options.id ? await context.cody.resolve(options.id) : await context.cody.active();
  if (id === undefined)
    throw new UsageError('No active conversation: give an id (see cody list) or start one with cody new.');

  if (options.status) {
    // With the tools, so the status says the conversation's approval policy and sandbox.
    const conversation = await context.cody.open(id);
    const status = conversation.status();
    const instructions = await conversation.projectInstructions();
    await context.dispose();
    const sandboxed = status.sandbox === undefined ? undefined : status.sandbox === 'bubblewrap';
    const unconfined = noSandboxWarning(status.approvalPolicy, sandboxed, status.confinement === 'off');
    // `api` is the wire API id everywhere machine-readable ('openai-chat', as in list and the events).
    const api = wireApiOf(status);
    // The policy the next run without --approval uses: what the conversation keeps, else config's default.
    const approval = conversation.keptApprovalPolicy();
    if (options.json) {
      const warning = unconfined !== undefined ? { warning: unconfined } : {};
      io.stdout.write(
        `${terminalSafeJson({ ...status, api, approvalPolicy: approval.policy, ...warning, instructions: instructions.files }, 2)}\n`,
      );
      return ExitCode.ok;
    }
    const percent = ((status.contextTokens / status.contextWindow) * 100).toFixed(1);
    io.stdout.write(
      sanitizeForTerminal(
        [
          `Conversation: ${status.id}`,
          `Provider:     ${status.provider} (${api})`,
          `Model:        ${status.model}`,
          `Window:       ${status.contextWindow.toLocaleString('en-US')} tokens (auto-compact at ${status.autoCompactLimit.toLocaleString('en-US')})`,
          `Used:         ${status.contextTokens.toLocaleString('en-US')} tokens (${percent}% of the window)`,
          `Compactions:  ${status.compactions}`,
          `Approval:     ${approval.policy} (${approval.recorded ? 'kept by this conversation' : 'the configured default'}; /approval changes it)`,
          `Reasoning:    ${status.reasoning ?? "the API's default"}${status.reasoningTokens !== undefined ? ` (${status.reasoningTokens.toLocaleString('en-US')} reasoning tokens so far)` : ''}`,
          ...(status.sandbox !== undefined ? [`Sandbox:      ${status.sandbox}`] : []),
          ...(unconfined !== undefined ? [`Warning:      ${unconfined}`] : []),
        ].join('\n') + '\n',
      ) + instructionsLines(instructions),
    );
    return ExitCode.ok;
  }

  const transcript = await context.cody.fullTranscript(id);
  if (options.summary) {
    const summaries = transcript.entries.filter((entry) => entry.kind === 'compacted');
    const last = summaries.at(-1);
    if (!last || last.kind !== 'compacted') {
      io.stdout.write(`Conversation ${id} has not been compacted yet.\n`);
      return ExitCode.ok;
    }
    io.stdout.write(
      options.json
        ? `${terminalSafeJson({ id, summary: last.summary })}\n`
        : `${sanitizeForTerminal(last.summary)}\n`,
    );
    return ExitCode.ok;
  }
  if (options.json) {
    io.stdout.write(`${terminalSafeJson({ id, meta: transcript.meta, entries: transcript.entries }, 2)}\n`);
    return ExitCode.ok;
  }
  // Everything below comes from the rollout: shown, never obeyed.
  io.stdout.write(
    sanitizeForTerminal(
      `Conversation ${id} · ${transcript.meta.provider}/${transcript.meta.model} · started ${transcript.meta.timestamp}\n`,
    ),
  );
  for (const entry of transcript.entries) io.stdout.write(sanitizeForTerminal(formatEntry(entry)));
  for (const warning of transcript.warnings) io.stderr.write(`warning: ${sanitizeForTerminal(warning)}\n`);
  return ExitCode.ok;
}

function formatEntry(entry: TranscriptEntry): string {
  switch (entry.kind) {
    case 'item':
      return formatItem(entry.item, entry.undone === true);
    case 'undo':
      return formatUndo(entry);
    case 'compacted':
      return `\n── compacted (${formatTokens(entry.tokensBefore ?? 0)} → ${formatTokens(entry.tokensAfter ?? 0)} tokens); summary: cody show --summary ──\n`;
    case 'turn-context':
      return `\n── ${entry.provider} (${entry.api}) · ${entry.model} ──\n`;
    case 'aborted':
      return `  [turn aborted: ${entry.reason}]\n`;
    default: {
      const exhaustive: never = entry;
      throw new Error(`unknown entry ${JSON.stringify(exhaustive)}`);
    }
  }
}

/** What an undo did, one line a path (paths it kept named as `cody undo` names them). */
function formatUndo(entry: Extract<TranscriptEntry, { kind: 'undo' }>): string {
  const turns = entry.turns.length > 0 ? ` ${entry.turns.map((turn) => `turn ${turn}`).join(', ')}` : '';
  const lines = [`\n── ↶ undo${turns} ──`];
  for (const path of entry.restored) lines.push(`  restored ${path}`);
  for (const path of entry.removed) lines.push(`  removed ${path}`);
  for (const path of entry.kept) lines.push(`  kept (changed since the turn): ${path}`);
  return `${lines.join('\n')}\n`;
}

/** Items of an undone turn are still shown; its message says `↶ undone` (the model no longer sees it). */
function formatItem(item: ResponseItem, undone: boolean): string {
  switch (item.type) {
    case 'message': {
      if (item.role === 'system' || item.role === 'developer') return '';
      // A guard on a copy: its false branch must not narrow `item` itself.
      const sent: ResponseItem = item;
      if (isInstructionsMessage(sent)) return formatInstructions(sent.content);
      const text = item.content
        .map((part) => (part.type === 'input_image' ? '[image]' : part.text))
        .join('\n');
      if (item.role === 'user') return `\nyou › ${text}${undone ? '   ↶ undone' : ''}\n`;
      return `\n${text}\n`;
    }
    case 'function_call':
      return `  ⚙ ${item.name}(${truncate(item.arguments, 200)})\n`;
    case 'function_call_output': {
      const text =
        typeof item.output === 'string'
          ? item.output
          : item.output.map((part) => (part.type === 'input_image' ? '[image]' : part.text)).join(' ');
      return `  ↳ ${truncate(text.replace(/\s+/g, ' '), 200)}\n`;
    }
    case 'reasoning': {
      const summary = item.summary.map((part) => part.text).join(' ');
      return summary ? `  (thinking: ${truncate(summary, 200)})\n` : '';
    }
    case 'ghost_snapshot':
    case 'opaque':
      return '';
    default: {
      const exhaustive: never = item;
      throw new Error(`unknown item ${JSON.stringify(exhaustive)}`);
    }
  }
}

/**
 * The project instructions (AGENTS.md) the harness sent in a user-role message: shown as what they are,
 * under their own heading, never as something the person typed (`you › # AGENTS.md instructions…`).
 */
function formatInstructions(content: ReadonlyArray<{ type: string; text?: string }>): string {
  const text = content.map((part) => part.text ?? '').join('');
  const heading = /^# AGENTS\.md instructions for (.*)$/m.exec(text);
  const inner = /<INSTRUCTIONS>\n?([\s\S]*?)\n?<\/INSTRUCTIONS>/.exec(text);
  const where = heading?.[1] !== undefined ? ` for ${heading[1]}` : '';
  return `\n── project instructions${where} (AGENTS.md) ──\n${(inner?.[1] ?? text).trimEnd()}\n`;
}

function truncate(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}
