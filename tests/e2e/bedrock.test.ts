/**
 * AWS Bedrock Converse through the built `cody`: chosen with `cody set-provider bedrock --base-url`
 * (saved as `baseUrls.bedrock`), signed with SigV4 from the environment Cody was given, a tool call and
 * its result round-tripped over AWS's event-stream encoding, and no secret written anywhere.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SIGV4_AUTHORIZATION } from '../fake-provider/bedrock-converse.js';
import { createHarness, type Harness, linesOfType } from './harness.js';

const SECRET = 'fake-aws-secret-SECRET-0009';
const SESSION_TOKEN = 'fake-session-token-SECRET-0010';
const AWS = {
  AWS_REGION: 'eu-central-1',
  AWS_ACCESS_KEY_ID: 'AKIAE2EFAKEFAKE00009',
  AWS_SECRET_ACCESS_KEY: SECRET,
  AWS_SESSION_TOKEN: SESSION_TOKEN,
};

type Json = Record<string, unknown>;

describe('bedrock-converse end to end', () => {
  let harness: Harness;
  beforeEach(async () => {
    harness = await createHarness();
  });
  afterEach(async () => {
    await harness.close();
  });

  it('chats and runs a tool over Bedrock Converse, SigV4-signed, recording the wire API id', async () => {
    const chosen = await harness.cody(['set-provider', 'bedrock', '--base-url', harness.server.url]);
    expect(chosen.code).toBe(0);
    const config = JSON.parse(
      await readFile(join(harness.env.CODY_HOME ?? '', 'config.json'), 'utf8'),
    ) as Json;
    expect(config.baseUrls).toEqual({ bedrock: harness.server.url });

    const id = (await harness.cody(['new'])).stdout.trim();
    const first = await harness.cody(['chat', 'my name is Alice'], { env: AWS });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toBe('echo: my name is Alice\n');

    harness.server.enqueue(
      {
        type: 'reply',
        toolCalls: [{ id: 'tooluse_e2e1', name: 'shell', arguments: { command: 'echo from-the-tool' } }],
      },
      { type: 'reply', text: 'The tool said hi.' },
    );
    const second = await harness.cody(['chat', '--approval', 'full-auto', 'run the tool'], { env: AWS });
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('The tool said hi.');

    const requests = harness.server.modelRequests();
    expect(requests.map((request) => request.api)).toEqual([
      'bedrock-converse',
      'bedrock-converse',
      'bedrock-converse',
    ]);
    for (const request of requests) {
      expect(request.rejected).toBeUndefined();
      expect(request.url).toBe(
        `/model/${encodeURIComponent('us.anthropic.claude-sonnet-4-5-20250929-v1:0')}/converse-stream`,
      );
      expect(String(request.headers.authorization)).toMatch(SIGV4_AUTHORIZATION);
      expect(String(request.headers.authorization)).toContain('/eu-central-1/bedrock/aws4_request');
      expect(request.headers['x-amz-security-token']).toBe(SESSION_TOKEN);
    }
    const last = requests[2]?.body as { messages: Array<{ role: string; content: Json[] }>; system?: Json[] };
    expect(String(last.system?.[0]?.text)).toMatch(/You are Cody/);
    const [call, result] = last.messages.slice(-2);
    expect(call?.content).toContainEqual({
      toolUse: { toolUseId: 'tooluse_e2e1', name: 'shell', input: { command: 'echo from-the-tool' } },
    });
    expect(result?.role).toBe('user');
    const toolResult = result?.content[0]?.toolResult as {
      toolUseId: string;
      content: Array<{ text: string }>;
    };
    expect(toolResult.toolUseId).toBe('tooluse_e2e1');
    expect(toolResult.content[0]?.text).toContain('from-the-tool');
    // The first turn's history came back too.
    expect(JSON.stringify(last.messages)).toContain('echo: my name is Alice');

    const lines = await harness.rollout(id);
    expect(linesOfType(lines, 'turn_context').map((line) => line.payload.api)).toEqual([
      'bedrock-converse',
      'bedrock-converse',
    ]);
    const everything = [
      lines.join('\n'),
      JSON.stringify(config),
      first.stdout,
      first.stderr,
      second.stdout,
      second.stderr,
    ];
    for (const text of everything) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(SESSION_TOKEN);
    }
  });

  it('without a region: exit 4 naming AWS_REGION, and no request', async () => {
    expect((await harness.cody(['set-provider', 'bedrock', '--base-url', harness.server.url])).code).toBe(0);
    const run = await harness.cody(['chat', 'hi'], { env: { ...AWS, AWS_REGION: undefined } });
    expect(run.code).toBe(4);
    expect(run.stderr).toMatch(/AWS_REGION/);
    expect(harness.server.modelRequests()).toHaveLength(0);
  });
});
