/**
 * The ACP sessions of one connection: each is a Cody conversation (the session id is its id), opened by
 * an engine (`createCody`) for the session's working directory, its workspace. Ids are taken whole: a
 * prefix that Cody's commands would accept never names a session here.
 */
import type { SessionInfo } from '@agentclientprotocol/sdk';
import { RequestError } from '@agentclientprotocol/sdk';
import { stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import type { AgentContext, ClientCapabilities, McpServer } from '@agentclientprotocol/sdk';
import { mcpServersOf } from './mcp-servers.js';
import {
  createCody,
  failureOf,
  type Cody,
  type CodyNotice,
  type Conversation,
  type EditorFiles,
} from '../core/index.js';
import type { TurnUpdates } from './turn-updates.js';

export interface AcpSession {
  id: string;
  cwd: string;
  engine: Cody;
  conversation: Conversation;
  /** What the session's turns cost so far (USD), for `usage_update`. */
  cost: { usd: number };
  /** The prompt running now: its updates (to cancel its permission requests). */
  running?: TurnUpdates;
  /** Set by session/cancel while a prompt runs: its answer is `cancelled` whatever the turn ends with. */
  cancelled?: boolean;
}

export interface SessionsOptions {
  env: Readonly<Record<string, string | undefined>>;
  version: string;
  /** The directory Cody was started in: the workspace of a listing or deletion that names none. */
  cwd: string;
  onNotice: (notice: CodyNotice) => void;
}

/** The client this connection serves, once it said what it can do (`initialize`). */
interface Client {
  context: AgentContext;
  capabilities: ClientCapabilities | undefined;
}

export class AcpSessions {
  /** The engine of listings and deletions (the directory Cody was started in). */
  private shared: Cody | undefined;
  private readonly sessions = new Map<string, AcpSession>();
  private readonly options: SessionsOptions;
  private client: Client | undefined;

  constructor(options: SessionsOptions) {
    this.options = options;
  }

  /** The client, and what it offers (its file system methods are used only when it offers them). */
  connect(context: AgentContext, capabilities: ClientCapabilities | undefined): void {
    this.client = { context, capabilities };
  }

  /** A new conversation in `cwd`, with the editor's MCP servers. */
  async create(cwd: string, mcpServers: readonly McpServer[] = []): Promise<AcpSession> {
    const named: { id?: string } = {};
    const engine = await this.engineFor(cwd, named, mcpServers);
    const conversation = await engine.create();
    named.id = conversation.id;
    return this.track({ id: conversation.id, cwd, engine, conversation, cost: { usd: 0 } });
  }

  /** A recorded conversation, continued in `cwd` (session/load, session/resume). */
  async open(id: string, cwd: string, mcpServers: readonly McpServer[] = []): Promise<AcpSession> {
    const known = this.sessions.get(id);
    if (known) return known;
    const engine = await this.engineFor(cwd, { id }, mcpServers);
    if (!(await exists(engine, id))) {
      await engine.close();
      throw RequestError.sessionNotFound(id);
    }
    const conversation = await engine.open(id);
    return this.track({ id, cwd, engine, conversation, cost: { usd: 0 } });
  }

  find(id: string): AcpSession | undefined {
    return this.sessions.get(id);
  }

  get(id: string): AcpSession {
    const session = this.sessions.get(id);
    if (!session) throw RequestError.sessionNotFound(id);
    return session;
  }

  /** Interrupts what runs and forgets the session (its conversation stays recorded). */
  async close(id: string): Promise<void> {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    session.running?.cancelPermissions();
    await session.conversation.close();
    await session.conversation.idle();
    await session.engine.close();
  }

  /** Deletes the conversation; an id no conversation has succeeds. */
  async delete(id: string): Promise<void> {
    await this.close(id);
    const engine = await this.sharedEngine();
    if (!(await exists(engine, id))) return;
    await engine.delete(id, { abortRunning: true });
  }

  /** The recorded conversations (of `cwd` when given), newest activity first. */
  async list(cwd: string | undefined): Promise<SessionInfo[]> {
    const engine = await this.sharedEngine();
    const summaries = await engine.list();
    return summaries.flatMap((summary) =>
      summary.cwd !== undefined && (cwd === undefined || summary.cwd === cwd)
        ? [
            {
              sessionId: summary.id,
              cwd: summary.cwd,
              ...(summary.title !== undefined ? { title: summary.title } : {}),
              updatedAt: summary.updatedAt,
            },
          ]
        : [],
    );
  }

  async closeAll(): Promise<void> {
    for (const id of [...this.sessions.keys()]) await this.close(id);
    await this.shared?.close();
  }

  private track(session: AcpSession): AcpSession {
    this.sessions.set(session.id, session);
    return session;
  }

  private async sharedEngine(): Promise<Cody> {
    return (this.shared ??= await this.engineFor(this.options.cwd, {}));
  }

  /**
   * An engine whose workspace is `cwd` (an absolute path to a directory), for one session: read_file reads
   * through the editor when the client offers it, for the session `named` names.
   */
  private async engineFor(
    cwd: string,
    named: { id?: string },
    mcpServers: readonly McpServer[] = [],
  ): Promise<Cody> {
    if (!isAbsolute(cwd)) throw RequestError.invalidParams(undefined, `cwd must be an absolute path: ${cwd}`);
    const directory = await stat(cwd).catch(() => undefined);
    if (!directory?.isDirectory())
      throw RequestError.invalidParams(undefined, `cwd is not a directory: ${cwd}`);
    const editorFiles = this.editorFiles(named);
    return createCody({
      env: this.options.env,
      cwd,
      version: this.options.version,
      onNotice: this.options.onNotice,
      ...(editorFiles ? { editorFiles } : {}),
      mcpServers: mcpServersOf(mcpServers, (message) => this.options.onNotice({ level: 'warning', message })),
    });
  }

  /** `fs/read_text_file` and `fs/write_text_file` for a session, each only when the client offers it. */
  private editorFiles(named: { id?: string }): EditorFiles | undefined {
    const client = this.client;
    const reads = client?.capabilities?.fs?.readTextFile === true;
    const writes = client?.capabilities?.fs?.writeTextFile === true;
    if (!client || (!reads && !writes)) return undefined;
    return {
      ...(reads
        ? {
            readTextFile: async (path: string) => {
              if (named.id === undefined) return undefined;
              const answer = await client.context.request('fs/read_text_file', { sessionId: named.id, path });
              return answer.content;
            },
          }
        : {}),
      ...(writes
        ? {
            writeTextFile: async (path: string, content: string) => {
              if (named.id === undefined) throw new Error('no session to write through');
              await client.context.request('fs/write_text_file', { sessionId: named.id, path, content });
            },
          }
        : {}),
    };
  }
}

/** Whether a conversation has exactly this id (never a prefix of one). */
async function exists(engine: Cody, id: string): Promise<boolean> {
  try {
    return (await engine.get(id)).id === id;
  } catch (error) {
    const { kind } = failureOf(error);
    if (kind === 'not-found' || kind === 'usage' || kind === 'ambiguous') return false;
    throw error;
  }
}
