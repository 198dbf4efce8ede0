/**
 * The two tools `cody mcp-server` offers, as `codex mcp-server` did (`codex`, `codex-reply`): `cody` runs
 * a turn in a new conversation, `cody-reply` continues one. Each answers with the final reply as text,
 * a second text line naming the conversation id (clients that show only text can still continue), and
 * `{ conversationId, reply }` as structured content.
 */
import { stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { APPROVAL_POLICIES, isProvider, REASONING_LEVELS, type Conversation } from '../core/index.js';
import type { Engines } from './engines.js';
import { runTurn, type AskClient } from './run-turn.js';

/** What a tool call brings besides its arguments: its signal, progress and a way to ask the person. */
export interface CallContext {
  signal: AbortSignal;
  progress?: (message: string) => void;
  ask?: AskClient;
}

/** Each tool's handler, given the request's context. */
export type ContextOf = (extra: RequestHandlerExtra<ServerRequest, ServerNotification>) => CallContext;

const codyInput = {
  prompt: z.string().min(1).describe('The task or question for Cody.'),
  cwd: z
    .string()
    .optional()
    .describe("Absolute path of the working directory (the workspace); default: the server's own."),
  model: z
    .string()
    .min(1)
    .optional()
    .describe("Model id on the configured provider; default: config.json's."),
  'approval-policy': z
    .enum(APPROVAL_POLICIES)
    .optional()
    .describe(
      "What runs without asking: read-only | ask | auto-edit | full-auto; default: config.json's approval, else ask. Under ask, a call that needs a person goes to the client as an elicitation, or is declined when the client cannot be asked.",
    ),
  reasoning: z.enum(REASONING_LEVELS).optional().describe('How hard the model reasons: off … high.'),
};

const replyInput = {
  conversationId: z
    .string()
    .min(1)
    .describe('The conversation id a `cody` call returned (or a unique prefix).'),
  prompt: z.string().min(1).describe('The next message in that conversation.'),
};

const output = {
  conversationId: z.string().describe('The id to pass to cody-reply.'),
  reply: z.string().describe("The model's final message of the turn."),
};

/** How long `cody-reply` waits for a turn still winding down (a cancelled one) before it says busy. */
const IDLE_WAIT_MS = 5_000;

export function registerTools(server: McpServer, engines: Engines, contextOf: ContextOf): void {
  server.registerTool(
    'cody',
    {
      title: 'Cody: run a task',
      description:
        'Starts a new Cody conversation in a workspace and runs one turn (Cody reads, edits and runs commands there under the approval policy); returns the final reply and the conversation id for cody-reply.',
      inputSchema: codyInput,
      outputSchema: output,
    },
    async (args, extra) => {
      const cwd = await workingDirectory(args.cwd, engines.defaultCwd);
      const conversation = await (await engines.at(cwd)).create();
      if (args.model !== undefined) setModel(conversation, args.model);
      if (args['approval-policy'] !== undefined) conversation.setApprovalPolicy(args['approval-policy']);
      return turnResult(conversation, args.prompt, contextOf(extra), args.reasoning);
    },
  );
  server.registerTool(
    'cody-reply',
    {
      title: 'Cody: continue a conversation',
      description:
        'Sends the next message in a Cody conversation (its history, workspace and approval policy kept); returns the final reply.',
      inputSchema: replyInput,
      outputSchema: output,
    },
    async (args, extra) => {
      const conversation = await engines.open(args.conversationId);
      if (conversation.busy) await Promise.race([conversation.idle(), delay(IDLE_WAIT_MS)]);
      return turnResult(conversation, args.prompt, contextOf(extra));
    },
  );
}

async function turnResult(
  conversation: Conversation,
  prompt: string,
  context: CallContext,
  reasoning?: (typeof REASONING_LEVELS)[number],
): Promise<CallToolResult> {
  const outcome = await runTurn({
    conversation,
    prompt,
    ...context,
    ...(reasoning !== undefined ? { reasoning } : {}),
  });
  const idLine = `conversationId: ${conversation.id}`;
  if (outcome.status !== 'completed') {
    const why = outcome.error
      ? `${outcome.error.kind}: ${outcome.error.message}`
      : 'the turn was interrupted';
    return { isError: true, content: [{ type: 'text', text: `Cody's turn failed (${why}).\n${idLine}` }] };
  }
  return {
    content: [
      { type: 'text', text: outcome.reply },
      { type: 'text', text: idLine },
    ],
    structuredContent: { conversationId: conversation.id, reply: outcome.reply },
  };
}

/** The model on the conversation's own provider and API. */
function setModel(conversation: Conversation, model: string): void {
  const { provider, api } = conversation.status();
  if (!isProvider(provider)) throw new Error(`unknown provider ${provider}`);
  conversation.setSelection({ provider, api, model });
}

/** The directory a new conversation works in: an absolute path to an existing directory. */
async function workingDirectory(given: string | undefined, fallback: string): Promise<string> {
  if (given === undefined) return fallback;
  if (!isAbsolute(given)) throw new Error(`cwd must be an absolute path: ${given}`);
  const path = resolve(given);
  const info = await stat(path).catch(() => undefined);
  if (!info?.isDirectory()) throw new Error(`cwd is not a directory: ${path}`);
  return path;
}

function delay(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms).unref());
}
