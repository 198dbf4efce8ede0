/** The fake Bedrock refuses what AWS refuses, so the client tests' signature checks can fail. */
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { describe, expect, it } from 'vitest';
import { bedrockConverseProtocol } from '../../fake-provider/bedrock-converse.js';
import { withFakeServer } from '../fake-server.js';

const server = withFakeServer();
const SIGNED =
  'AWS4-HMAC-SHA256 Credential=AKIAFAKE/20261126/us-east-1/bedrock/aws4_request, SignedHeaders=host;x-amz-date, Signature=' +
  'a'.repeat(64);
const BODY = JSON.stringify({ messages: [{ role: 'user', content: [{ text: 'hi' }] }] });

async function post(headers: Record<string, string>): Promise<Response> {
  return fetch(`${server.url}/model/m/converse-stream`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: BODY,
  });
}

describe('the fake Bedrock', () => {
  it('refuses a request without a SigV4 signature or without x-amz-date', async () => {
    const unsigned = await post({ authorization: 'AWS4-HMAC-SHA256 nonsense' });
    expect(unsigned.status).toBe(403);
    expect(unsigned.headers.get('x-amzn-errortype')).toMatch(/^IncompleteSignatureException:/);
    expect((await post({ authorization: SIGNED })).status).toBe(403);
    expect((await post({})).status).toBe(401);
  });

  it('answers a signed request with event-stream frames AWS’s codec decodes', async () => {
    const answer = await post({ authorization: SIGNED, 'x-amz-date': '20261126T000000Z' });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/vnd.amazon.eventstream');
    const codec = new EventStreamCodec(
      (bytes) => Buffer.from(bytes).toString('utf8'),
      (text) => new Uint8Array(Buffer.from(text)),
    );
    const bytes = new Uint8Array(await answer.arrayBuffer());
    const types: string[] = [];
    // Each message starts with its total length (big-endian uint32).
    for (let offset = 0; offset < bytes.length;) {
      const length = new DataView(bytes.buffer, bytes.byteOffset + offset, 4).getUint32(0);
      const decoded = codec.decode(bytes.subarray(offset, offset + length));
      offset += length;
      expect(decoded.headers[':message-type']?.value).toBe('event');
      expect(decoded.headers[':content-type']?.value).toBe('application/json');
      types.push(String(decoded.headers[':event-type']?.value));
    }
    expect(types[0]).toBe('messageStart');
    expect(types.slice(-2)).toEqual(['messageStop', 'metadata']);
    expect(types).toContain('contentBlockDelta');
  });

  it('rejects what Converse rejects: tool blocks without toolConfig, a first assistant turn', () => {
    const request = (body: Record<string, unknown>) => ({
      url: new URL('http://x/model/m/converse-stream'),
      body,
      headers: { authorization: SIGNED, 'x-amz-date': '20261126T000000Z' },
    });
    const toolUse = { toolUse: { toolUseId: 't1', name: 'shell', input: {} } };
    expect(
      bedrockConverseProtocol.validate(
        request({
          messages: [
            { role: 'user', content: [{ text: 'a' }] },
            { role: 'assistant', content: [toolUse] },
          ],
        }),
      )?.status,
    ).toBe(400);
    expect(
      bedrockConverseProtocol.validate(
        request({ messages: [{ role: 'assistant', content: [{ text: 'a' }] }] }),
      )?.status,
    ).toBe(400);
    expect(
      bedrockConverseProtocol.validate(request({ messages: [{ role: 'user', content: [{ text: 'a' }] }] })),
    ).toBeUndefined();
  });
});
