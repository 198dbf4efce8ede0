/**
 * `cody acp`: Cody as an Agent Client Protocol (v1) agent on stdin/stdout, newline-delimited JSON-RPC
 * through the official SDK. stdout carries protocol messages only; diagnostics go to stderr. Every session
 * is a Cody conversation obtained from `createCody` (sessions.ts); what runs unasked is the engine's
 * decision, as in every other front end.
 */
import {
  agent,
  ndJsonStream,
  PROTOCOL_VERSION,
  RequestError,
  type AgentApp,
  type AgentContext,
  type InitializeResponse,
  type LoadSessionResponse,
  type SessionUpdate,
} from '@agentclientprotocol/sdk';
import { Readable, Writable } from 'node:stream';
import { format } from 'node:util';
import { replayEntry } from './replay.js';
import { AcpSessions, type AcpSession } from './sessions.js';
import {
  availableCommands,
  configOptions,
  isApprovalPolicy,
  modeState,
  setConfigOption,
} from './session-config.js';
import { runPrompt } from './prompt-turn.js';

export interface AcpIo {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: { write(chunk: string): unknown };
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  version: string;
}

/** Serves one client until it closes stdin; resolves with the exit code. */
export async function runAcp(io: AcpIo): Promise<number> {
  // Nothing but protocol messages on stdout: a stray console.log anywhere goes to stderr.
  const log = (...args: unknown[]): void => void io.stderr.write(`${format(...args)}\n`);
  console.log = console.info = console.debug = console.warn = log;
  const sessions = new AcpSessions({
    env: io.env,
    cwd: io.cwd,
    version: io.version,
    onNotice: (notice) => log(`cody acp: ${notice.level}: ${notice.message}`),
  });
  const app = agentApp(sessions, io.version);
  const stream = ndJsonStream(
    Writable.toWeb(io.stdout as Writable) as WritableStream<Uint8Array>,
    Readable.toWeb(io.stdin as Readable) as ReadableStream<Uint8Array>,
  );
  const connection = app.connect(stream);
  await connection.closed.catch((error: unknown) => log('cody acp: connection closed:', error));
  await sessions.closeAll();
  return 0;
}

export function initializeResponse(version: string): InitializeResponse {
  return {
    protocolVersion: PROTOCOL_VERSION,
    agentInfo: { name: 'cody', title: 'Cody', version },
    agentCapabilities: {
      loadSession: true,
      promptCapabilities: { image: true, audio: false, embeddedContext: true },
      mcpCapabilities: { http: true, sse: false },
      sessionCapabilities: { list: {}, resume: {}, close: {}, delete: {} },
    },
    authMethods: [
      {
        id: 'api-key',
        name: 'API key in the environment',
        description:
          "Start the editor with the provider's key in its environment (OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY, …).",
      },
      {
        id: 'cody-auth-login',
        name: 'cody auth login',
        description: 'Run `cody auth login` in a terminal to store a key or sign in, then try again.',
      },
    ],
  };
}

/** The commands the editor offers after `/` in this session. */
async function announceCommands(client: AgentContext, session: AcpSession): Promise<void> {
  const commands = await availableCommands(session.conversation);
  await client.notify('session/update', {
    sessionId: session.id,
    update: { sessionUpdate: 'available_commands_update', availableCommands: commands },
  });
}

/** Announces the commands once the editor knows the session (after the answer that named it). */
function announceLater(client: AgentContext, session: AcpSession): void {
  setTimeout(() => void announceCommands(client, session).catch(() => undefined), 0);
}

function stateOf(session: AcpSession): Pick<LoadSessionResponse, 'modes' | 'configOptions'> {
  return { modes: modeState(session.conversation), configOptions: configOptions(session.conversation) };
}

async function notifyAll(client: AgentContext, sessionId: string, updates: SessionUpdate[]): Promise<void> {
  for (const update of updates) await client.notify('session/update', { sessionId, update });
}

/** After a mode or option change: the new mode and every option's value. */
function changed(session: AcpSession, modeToo: boolean): SessionUpdate[] {
  return [
    ...(modeToo
      ? [
          {
            sessionUpdate: 'current_mode_update' as const,
            currentModeId: modeState(session.conversation).currentModeId,
          },
        ]
      : []),
    { sessionUpdate: 'config_option_update', configOptions: configOptions(session.conversation) },
  ];
}

function agentApp(sessions: AcpSessions, version: string): AgentApp {
  return agent({ name: 'cody' })
    .onRequest('initialize', ({ params, client }) => {
      sessions.connect(client, params.clientCapabilities);
      return initializeResponse(version);
    })
    .onRequest('authenticate', () => ({}))
    .onRequest('session/new', async ({ params, client }) => {
      const session = await sessions.create(params.cwd, params.mcpServers);
      announceLater(client, session);
      return { sessionId: session.id, ...stateOf(session) };
    })
    .onRequest('session/load', async ({ params, client }) => {
      const session = await sessions.open(params.sessionId, params.cwd, params.mcpServers);
      let after: string | undefined;
      do {
        const page = await session.engine.transcript(session.id, {
          limit: 1000,
          ...(after ? { after } : {}),
        });
        for (const entry of page.entries)
          await notifyAll(client, session.id, replayEntry(entry, session.cwd));
        after = page.next;
      } while (after !== undefined);
      // Before the answer: nothing is sent for a loaded session after it until the next prompt.
      await announceCommands(client, session);
      return stateOf(session);
    })
    .onRequest('session/resume', async ({ params, client }) => {
      const session = await sessions.open(params.sessionId, params.cwd, params.mcpServers ?? []);
      announceLater(client, session);
      return stateOf(session);
    })
    .onRequest('session/list', async ({ params }) => ({
      sessions: await sessions.list(params.cwd ?? undefined),
    }))
    .onRequest('session/close', async ({ params }) => {
      await sessions.close(params.sessionId);
      return {};
    })
    .onRequest('session/delete', async ({ params }) => {
      await sessions.delete(params.sessionId);
      return {};
    })
    .onRequest('session/set_mode', async ({ params, client }) => {
      const session = sessions.get(params.sessionId);
      if (!isApprovalPolicy(params.modeId))
        throw RequestError.invalidParams(undefined, `unknown mode '${params.modeId}'`);
      session.conversation.setApprovalPolicy(params.modeId);
      await notifyAll(client, session.id, changed(session, true));
      return {};
    })
    .onRequest('session/set_config_option', async ({ params, client }) => {
      const session = sessions.get(params.sessionId);
      setConfigOption(session.conversation, params.configId, params.value);
      await notifyAll(client, session.id, changed(session, params.configId === 'mode'));
      return { configOptions: configOptions(session.conversation) };
    })
    .onRequest('session/prompt', ({ params, client }) =>
      runPrompt(sessions.get(params.sessionId), params, client),
    )
    .onNotification('session/cancel', ({ params }) => {
      const session = sessions.find(params.sessionId);
      if (!session?.running) return;
      session.cancelled = true;
      session.running.cancelPermissions();
      session.conversation.abort();
    });
}
