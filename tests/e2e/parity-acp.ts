/**
 * The `cody acp` column of the parity matrix (tests/e2e/parity-matrix.test.ts): the built agent spawned
 * when the row begins (each session reads config.json as it opens, but the row's harness — its CODY_HOME
 * and fake provider — is the row's own), one `session/new` and one `session/prompt`, questions answered
 * with `session/request_permission` options. ACP's answer carries no reason, so a denial is a plain
 * "Reject": `withoutReasons` is what the reference run becomes for this column.
 */
import { expect } from 'vitest';
import { AcpSchema, startAcpAgent, type AcpAgent } from './acp-client.js';
import type { Harness } from './harness.js';
import { collectRun, type Run } from './parity-helpers.js';
import { MESSAGE, REPLY, type Row, type RowRun } from './parity-columns.js';

const schema = new AcpSchema();
/** The tool output of a denial without a reason (src/core/turn/tool-step.ts). */
const DECLINED = 'The user declined to run this tool call. Ask them how to proceed.';

/** Spawns and initializes the agent (a client that offers no file system methods: Cody's own files). */
export async function startAcp(harness: Harness): Promise<AcpAgent> {
  const agent = startAcpAgent({ env: { ...harness.env }, cwd: harness.home, schema });
  await agent.connection.agent.request('initialize', {
    protocolVersion: 1,
    clientCapabilities: { fs: { readTextFile: false, writeTextFile: false } },
    clientInfo: { name: 'parity', version: '1' },
  });
  return agent;
}

export async function runAcp({ harness, row, acp }: RowRun): Promise<Run> {
  if (row.calls.length > 0) harness.server.enqueue({ type: 'reply', toolCalls: row.calls });
  harness.server.enqueue({ type: 'reply', text: row.reply ?? REPLY });
  const agent = await acp;
  agent.onPermission = (request) => {
    const answer = row.answers?.[request.toolCall.toolCallId];
    const optionId = answer?.decision === 'approve' ? 'allow-once' : 'reject-once';
    return Promise.resolve(
      answer ? { outcome: { outcome: 'selected', optionId } } : { outcome: { outcome: 'cancelled' } },
    );
  };
  const { sessionId } = await agent.connection.agent.request('session/new', {
    cwd: harness.home,
    mcpServers: [],
  });
  const answered = await agent.connection.agent.request('session/prompt', {
    sessionId,
    prompt: [{ type: 'text', text: row.message ?? MESSAGE }],
  });
  expect(answered.stopReason, agent.stderr()).toBe('end_turn');
  expect(agent.log.problems).toEqual([]);
  return collectRun(harness, sessionId, row.api);
}

/** The reference run as ACP can give it: each denial's reason dropped (the editor's "Reject" has none). */
export function withoutReasons(reference: Run, row: Row): Run {
  let text = JSON.stringify(reference);
  for (const answer of Object.values(row.answers ?? {})) {
    if (answer.decision !== 'deny' || !answer.reason) continue;
    const said = JSON.stringify(`The user declined to run this tool call and said: ${answer.reason}`);
    text = text.split(said.slice(1, -1)).join(JSON.stringify(DECLINED).slice(1, -1));
  }
  return JSON.parse(text) as Run;
}
