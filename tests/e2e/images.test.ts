/**
 * Images (issue 22, part 2), in process through createCody against the fake provider: an attached image
 * in each API's shape on the wire, replayed after a provider switch, named after compaction, recorded as
 * Codex records it; view_image's result as an image in each API's shape; a model without vision refused
 * before anything is sent.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCody, type Cody, type CodyEvent } from '../../src/index.js';
import { CLI_VERSION } from '../../src/cli/version.js';
import { createHarness, linesOfType, type Harness } from './harness.js';
import { PNG_1X1, PNG_1X1_BASE64 } from './image-fixtures.js';
import { APIS, DATA_URL, SELECTIONS, USER_IMAGE, userParts } from './wire-images.js';

async function drain(events: AsyncIterable<CodyEvent>): Promise<CodyEvent[]> {
  const seen: CodyEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

describe('images', () => {
  let harness: Harness;
  let cody: Cody;
  beforeEach(async () => {
    harness = await createHarness();
    await harness.writeConfig({ provider: 'openai', api: 'responses', model: 'gpt-4.1-mini' });
    await writeFile(join(harness.home, 'shot.png'), PNG_1X1);
    cody = createCody({
      home: harness.env.CODY_HOME,
      env: harness.env,
      cwd: harness.home,
      canAsk: false,
      version: CLI_VERSION,
    });
  });
  afterEach(async () => {
    await cody.close();
    await harness.close();
  });

  it.each(APIS)('sends an attached image in the %s shape', async (api) => {
    const conversation = await cody.create(SELECTIONS[api]);
    const events = await drain(
      conversation.submit('what is wrong here?', { images: [join(harness.home, 'shot.png')] }),
    );
    expect(events.at(-1)).toMatchObject({ type: 'turn-complete', status: 'completed' });
    const [request] = harness.server.modelRequests(api);
    const parts = userParts(api, request?.body);
    expect(parts).toContainEqual(USER_IMAGE[api]);
    expect(JSON.stringify(parts)).toContain('what is wrong here?');
    expect(JSON.stringify(parts)).toContain('<image name=shot.png>');
  });

  it('records the image as Codex does: an input_image data URL in the user message item', async () => {
    const conversation = await cody.create();
    await drain(conversation.submit('look', { images: [{ data: PNG_1X1, name: 'shot.png' }] }));
    const lines = await harness.rollout(conversation.id);
    const user = linesOfType(lines, 'response_item').find(
      (line) => line.payload.type === 'message' && line.payload.role === 'user',
    );
    expect(user?.payload.content).toEqual([
      { type: 'input_text', text: 'look' },
      { type: 'input_text', text: '<image name=shot.png>' },
      { type: 'input_image', image_url: DATA_URL },
      { type: 'input_text', text: '</image>' },
    ]);
    const announced = linesOfType(lines, 'event_msg').find((line) => line.payload.type === 'user_message');
    expect(announced?.payload).toMatchObject({ message: 'look', images: [DATA_URL] });
  });

  it('replays the image after a switch to another provider', async () => {
    const conversation = await cody.create(SELECTIONS['openai-responses']);
    await drain(conversation.submit('what is this?', { images: [join(harness.home, 'shot.png')] }));
    conversation.setSelection(SELECTIONS['anthropic-messages']);
    await drain(conversation.submit('and now?'));
    const [request] = harness.server.modelRequests('anthropic-messages');
    expect(userParts('anthropic-messages', request?.body)).toContainEqual(USER_IMAGE['anthropic-messages']);
  });

  it('keeps an image from before a compaction as [image: name]', async () => {
    const conversation = await cody.create(SELECTIONS['openai-chat']);
    await drain(conversation.submit('what is this?', { images: [join(harness.home, 'shot.png')] }));
    const compacted = await drain(conversation.compact());
    expect(compacted.at(-1)).toMatchObject({ type: 'turn-complete' });
    harness.server.reset();
    await drain(conversation.submit('go on'));
    const [request] = harness.server.modelRequests('openai-chat');
    const body = JSON.stringify(request?.body);
    expect(body).toContain('[image: shot.png]');
    expect(body).not.toContain(PNG_1X1_BASE64);
  });

  it('expands a prompt command sent with an image', async () => {
    await mkdir(join(harness.env.CODY_HOME ?? '', 'prompts'), { recursive: true });
    await writeFile(join(harness.env.CODY_HOME ?? '', 'prompts', 'review.md'), 'Review $ARGUMENTS closely.');
    const conversation = await cody.create(SELECTIONS['openai-chat']);
    await drain(conversation.submit('/review the layout', { images: [join(harness.home, 'shot.png')] }));
    const [request] = harness.server.modelRequests('openai-chat');
    const parts = userParts('openai-chat', request?.body);
    expect(parts[0]).toEqual({ type: 'text', text: 'Review the layout closely.' });
    expect(parts).toContainEqual(USER_IMAGE['openai-chat']);
  });

  it('refuses a model known to take no images before anything is sent', async () => {
    const conversation = await cody.create({ provider: 'openai', api: 'chat', model: 'gpt-3.5-turbo' });
    const events = await drain(conversation.submit('see', { images: [join(harness.home, 'shot.png')] }));
    expect(events).toEqual([
      {
        type: 'turn-failed',
        error: {
          kind: 'usage',
          message:
            "Model 'gpt-3.5-turbo' does not accept images; choose a model with vision or send the message without them.",
        },
      },
    ]);
    expect(harness.server.modelRequests()).toHaveLength(0);
  });

  it('refuses a file that is no image by its bytes, whatever its name', async () => {
    await writeFile(join(harness.home, 'fake.png'), 'not an image at all');
    const conversation = await cody.create();
    const events = await drain(conversation.submit('see', { images: [join(harness.home, 'fake.png')] }));
    expect(events.at(-1)).toMatchObject({
      type: 'turn-failed',
      error: {
        kind: 'usage',
        message: 'fake.png is not a PNG, JPEG, GIF or WebP image (checked by its bytes).',
      },
    });
    expect(harness.server.modelRequests()).toHaveLength(0);
  });

  it.each(APIS)('gives view_image results to the model as an image on %s', async (api) => {
    harness.server.enqueue(
      { type: 'reply', toolCalls: [{ id: 'call_img', name: 'view_image', arguments: { path: 'shot.png' } }] },
      { type: 'reply', text: 'A single pixel.' },
    );
    const conversation = await cody.create(SELECTIONS[api]);
    const events = await drain(conversation.submit('look at shot.png'));
    expect(events.at(-1)).toMatchObject({ type: 'turn-complete', status: 'completed' });
    const [first, second] = harness.server.modelRequests(api);
    expect(JSON.stringify(first?.body)).toContain('"view_image"');
    expect(userParts(api, second?.body)).toContainEqual(
      api === 'openai-responses' ? { type: 'input_image', image_url: DATA_URL } : USER_IMAGE[api],
    );
  });
});
