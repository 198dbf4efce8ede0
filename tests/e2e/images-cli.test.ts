/**
 * Images through the built `cody`: `cody chat --image` (sent, and refused with one line and exit 2 for
 * bad bytes, too large, or a model without vision, with nothing sent; named in text once the conversation
 * moves to a text-only model) and `cody serve`'s message body.
 */
import { truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, linesOfType, type Harness } from './harness.js';
import { startServe } from './serve-harness.js';
import { PNG_1X1, PNG_1X1_BASE64 } from './image-fixtures.js';

const DATA_URL = `data:image/png;base64,${PNG_1X1_BASE64}`;

describe('cody chat --image', () => {
  let harness: Harness;
  beforeEach(async () => {
    harness = await createHarness();
    await harness.writeConfig({ provider: 'openai', api: 'chat', model: 'gpt-4.1-mini' });
    await writeFile(join(harness.home, 'shot.png'), PNG_1X1);
    await writeFile(join(harness.home, 'two.png'), PNG_1X1);
  });
  afterEach(async () => {
    await harness.close();
  });

  it('sends each --image with the message and records it in the rollout', async () => {
    const run = await harness.cody([
      'chat',
      '--json',
      '--image',
      'shot.png',
      '--image',
      'two.png',
      'what is wrong here?',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const [request] = harness.server.modelRequests('openai-chat');
    const messages = (request?.body as { messages: Array<{ role: string; content: unknown }> }).messages;
    expect(messages.at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'what is wrong here?' },
        { type: 'text', text: '<image name=shot.png>' },
        { type: 'image_url', image_url: { url: DATA_URL } },
        { type: 'text', text: '</image>' },
        { type: 'text', text: '<image name=two.png>' },
        { type: 'image_url', image_url: { url: DATA_URL } },
        { type: 'text', text: '</image>' },
      ],
    });
    const id = String((JSON.parse(run.stdout) as { conversationId: string }).conversationId);
    const user = linesOfType(await harness.rollout(id), 'response_item').find(
      (line) => line.payload.role === 'user',
    );
    expect(JSON.stringify(user?.payload.content)).toContain(`"image_url":"${DATA_URL}"`);
  });

  it('sends [image: name] text in place of an earlier image to a text-only model, and no view_image', async () => {
    expect((await harness.cody(['chat', '--image', 'shot.png', 'what is wrong here?'])).code).toBe(0);
    harness.server.reset();
    const run = await harness.cody(['chat', '--model', 'gpt-3.5-turbo', 'and now?']);
    expect(run.code, run.stderr).toBe(0);
    const [request] = harness.server.modelRequests('openai-chat');
    const body = request?.body as {
      model: string;
      messages: unknown[];
      tools: Array<{ function: { name: string } }>;
    };
    expect(body.model).toBe('gpt-3.5-turbo');
    expect(JSON.stringify(body.messages)).toContain('[image: shot.png]');
    expect(JSON.stringify(body.messages)).not.toContain(PNG_1X1_BASE64);
    expect(body.tools.map((tool) => tool.function.name)).not.toContain('view_image');
    expect(body.tools.map((tool) => tool.function.name)).toContain('read_file');
  });

  it.each([
    ['bad bytes', 'fake.png', 'cody: fake.png is not a PNG, JPEG, GIF or WebP image (checked by its bytes).'],
    ['too large', 'huge.png', 'cody: huge.png is too large to attach: 20.0 MB (at most 20 MB).'],
  ])('refuses %s in one line, exit 2, nothing sent', async (_, name, line) => {
    await writeFile(join(harness.home, 'fake.png'), 'text, not an image');
    await writeFile(join(harness.home, 'huge.png'), PNG_1X1);
    await truncate(join(harness.home, 'huge.png'), 20 * 1024 * 1024 + 1);
    const run = await harness.cody(['chat', '--image', name, 'look']);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(line);
    expect(harness.server.modelRequests()).toHaveLength(0);
  });

  it('refuses a model without vision in one line, exit 2, nothing sent', async () => {
    await harness.writeConfig({ provider: 'openai', api: 'chat', model: 'gpt-3.5-turbo' });
    const run = await harness.cody(['chat', '--image', 'shot.png', 'look']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      "cody: Model 'gpt-3.5-turbo' does not accept images; choose a model with vision or send the message without them.",
    );
    expect(
      run.stderr
        .trim()
        .split('\n')
        .filter((text) => text.startsWith('cody:')),
    ).toHaveLength(1);
    expect(harness.server.modelRequests()).toHaveLength(0);
  });

  it('takes images in the POST body of cody serve, and refuses bad ones with 400', async () => {
    const served = await startServe(harness);
    try {
      const created = await served.api.request('POST', '/conversations', {});
      const id = String(created.json.id);
      const bad = await served.api.request('POST', `/conversations/${id}/messages`, {
        text: 'look',
        images: [{ data: Buffer.from('not an image').toString('base64'), name: 'x.png' }],
      });
      expect(bad.status).toBe(400);
      expect(bad.json).toMatchObject({
        error: { message: 'x.png is not a PNG, JPEG, GIF or WebP image (checked by its bytes).' },
      });
      const accepted = await served.api.request('POST', `/conversations/${id}/messages`, {
        text: 'look',
        images: [{ data: PNG_1X1_BASE64, name: 'shot.png' }],
      });
      expect(accepted.status, accepted.text).toBe(202);
      const started = Date.now();
      while (harness.server.modelRequests('openai-chat').length === 0 && Date.now() - started < 20_000)
        await new Promise((resolve) => setTimeout(resolve, 100));
      const [request] = harness.server.modelRequests('openai-chat');
      expect(JSON.stringify(request?.body)).toContain(
        JSON.stringify({ type: 'image_url', image_url: { url: DATA_URL } }),
      );
      const textOnly = await served.api.request('POST', '/conversations', {
        provider: 'openai',
        api: 'chat',
        model: 'gpt-3.5-turbo',
      });
      expect(textOnly.status, textOnly.text).toBe(201);
      const refused = await served.api.request(
        'POST',
        `/conversations/${String(textOnly.json.id)}/messages`,
        {
          text: 'look',
          images: [{ data: PNG_1X1_BASE64 }],
        },
      );
      expect(refused.status).toBe(400);
      expect(JSON.stringify(refused.json)).toContain("Model 'gpt-3.5-turbo' does not accept images");
      expect(harness.server.modelRequests('openai-chat')).toHaveLength(1);
    } finally {
      await served.stop();
    }
  });
});
