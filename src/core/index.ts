/**
 * Core's front door for this package's front ends (src/cli, src/server; the lint rule in
 * eslint.config.js holds them to it and to the few leaf modules listed there). The engine is
 * `createCody`: front ends obtain conversations from it and drive them with `submit` and `respond`;
 * `Session`, `ConversationManager` and the tool runtime stay inside core. Everything here is light:
 * the heavy modules (the session, SDKs, tools, MCP) load only when a conversation is opened.
 */
import { toWireApi, type CodyConfig } from './config/index.js';
import type { Store } from './engine/index.js';
import type { McpServerStatus } from './mcp/index.js';
import type { SessionStatus } from './conversation/index.js';
import type { RecapMessage, Transcript } from './rollout/index.js';
import { isProvider } from './config/index.js';
import type { WireApi } from '../protocol/index.js';
import { isWireApi } from '../providers/lookup.js';

export { createCody } from './engine/index.js';
export type { Cody, CreateCodyOptions } from './engine/index.js';
export { storeOf } from './engine/index.js';
export { costOf } from './selection/index.js';
export type { UsageTotals } from './selection/index.js';
export type { Store as CodyStore } from './engine/index.js';
export { failureOf, thrownBy } from './conversation/index.js';
export type { Conversation, SubmitOptions } from './conversation/index.js';
export type { LiveRun, LiveRunKind, LiveWatch } from './live-channel/index.js';
export type { ImageInput } from './images/index.js';
export { loadImage } from './images/index.js';
export { sniffImageType } from './images/index.js';
export type { CodyNotice, SelectionChoice, SessionStatus } from './conversation/index.js';
export type { McpServerStatus } from './mcp/index.js';
export type { ForkOptions } from './store/index.js';
export type { TranscriptPage, TranscriptPageMeta, TranscriptPageOptions } from './rollout/index.js';
export type { ConversationSummary } from './rollout/index.js';
export type { RolloutStore } from './rollout/index.js';
export type { RecapMessage, Transcript, TranscriptEntry, TranscriptMeta } from './rollout/index.js';

/** The recap's messages of a transcript (the store's `recentTranscript`); the transcript loads here. */
export async function recapMessages(transcript: Transcript): Promise<RecapMessage[]> {
  const module = await import('./rollout/transcript.js');
  return module.recapMessages(transcript);
}
export type { ProjectDocFile, ProjectInstructions } from './project/index.js';
export type { PromptCommand, SlashMessage } from './project/index.js';

/** The wire API id (`openai-chat`, …) of a conversation's status, whose `api` is the name a person types. */
export function wireApiOf(status: Pick<SessionStatus, 'provider' | 'api'>): WireApi {
  if (isWireApi(status.api)) return status.api;
  if (!isProvider(status.provider)) throw new Error(`unknown provider ${status.provider}`);
  return toWireApi(status.provider, status.api);
}

/**
 * Starts each configured MCP server, lists its state and tools, and shuts them down (`cody mcp list`).
 * The MCP client loads only here.
 */
export async function inspectMcpServers(options: {
  servers: NonNullable<CodyConfig['mcpServers']>;
  cwd: string;
  version: string;
}): Promise<McpServerStatus[]> {
  const { McpManager } = await import('./mcp/mcp-manager.js');
  const manager = new McpManager({
    servers: options.servers,
    cwd: options.cwd,
    clientVersion: options.version,
  });
  try {
    await manager.prepare();
    return manager.status();
  } finally {
    await manager.close();
  }
}

/**
 * A fork holding the history up to and including user turn `through` (all of it when undefined); returns
 * its id (made active). The fork modules load only here.
 */
export async function forkThrough(
  manager: Store['manager'],
  id: string,
  through: number | undefined,
): Promise<string> {
  const module = await import('./store/fork-through.js');
  return module.forkThrough(manager, id, through);
}
