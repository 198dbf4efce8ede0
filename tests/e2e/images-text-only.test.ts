/**
 * Images already in the history when the conversation switches to a model known to take none (issue 22),
 * in process through createCody against the fake provider, on all four wire APIs: that model is sent
 * `[image: shot.png]` text in place of each image (the attached one and view_image's), is not offered
 * view_image, and the rollout keeps the images so switching back sends them again.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCody, type Cody, type CodyEvent } from '../../src/index.js';
import { CLI_VERSION } from '../../src/cli/version.js';
import { createHarness, linesOfType, type Harness } from './harness.js';
import { PNG_1X1, PNG_1X1_BASE64 } from './image-fixtures.js';
import { type Api, APIS, DATA_URL, offeredTools, SELECTIONS, USER_IMAGE, userParts } from './wire-images.js';

/** A model each API is known not to take images with: the catalogue's, or one config says so of. */
const TEXT_ONLY: Record<Api, string> = {
  'openai-responses': 'o3-mini',
  'openai-chat': 'gpt-3.5-turbo',
  'anthropic-messages': 'claude-text-only',
  gemini: 'gemini-text-only',
};

async function drain(events: AsyncIterable<CodyEvent>): Promise<CodyEvent[]> {
  const seen: CodyEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

describe('images in the history of a text-only model', () => {
  let harness: Harness;
  let cody: Cody;
  beforeEach(async () => {
    harness = await createHarness();
    await harness.writeConfig({
      provider: 'openai',
      api: 'responses',
      model: 'gpt-4.1-mini',
      models: { 'claude-text-only': { images: false }, 'gemini-text-only': { images: false } },
    });
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

  it.each(APIS)(
    'names the images in text and offers no view_image on %s, then sends them again',
    async (api) => {
      harness.server.enqueue(
        {
          type: 'reply',
          toolCalls: [{ id: 'call_img', name: 'view_image', arguments: { path: 'shot.png' } }],
        },
        { type: 'reply', text: 'A single pixel.' },
      );
      const vision = SELECTIONS[api];
      const conversation = await cody.create(vision);
      const first = await drain(
        conversation.submit('what is this?', { images: [join(harness.home, 'shot.png')] }),
      );
      expect(first.at(-1)).toMatchObject({ type: 'turn-complete', status: 'completed' });
      const [before] = harness.server.modelRequests(api);
      expect(offeredTools(api, before?.body)).toContain('view_image');

      harness.server.reset();
      conversation.setSelection({ ...vision, model: TEXT_ONLY[api] });
      const second = await drain(conversation.submit('and now?'));
      expect(second.at(-1)).toMatchObject({ type: 'turn-complete', status: 'completed' });
      const [textOnly] = harness.server.modelRequests(api);
      const body = JSON.stringify(textOnly?.body);
      expect(body).not.toContain(PNG_1X1_BASE64);
      // The attached image and the one view_image returned, each named where it was.
      expect(body.match(/\[image: shot\.png\]/g)).toHaveLength(2);
      expect(body).not.toContain('<image name=');
      expect(offeredTools(api, textOnly?.body)).not.toContain('view_image');
      expect(offeredTools(api, textOnly?.body)).toContain('read_file');

      harness.server.reset();
      conversation.setSelection(vision);
      await drain(conversation.submit('and with vision?'));
      const [back] = harness.server.modelRequests(api);
      expect(userParts(api, back?.body)).toContainEqual(USER_IMAGE[api]);
      expect(offeredTools(api, back?.body)).toContain('view_image');

      // The rollout kept both images as Codex records them.
      const items = linesOfType(await harness.rollout(conversation.id), 'response_item').map(
        (line) => line.payload,
      );
      const user = items.find((item) => item.type === 'message' && item.role === 'user');
      expect(user?.content).toContainEqual({ type: 'input_image', image_url: DATA_URL });
      const output = items.find((item) => item.type === 'function_call_output');
      expect(output?.output).toContainEqual({ type: 'input_image', image_url: DATA_URL });
    },
  );

  it('names the images in a compaction summary request to a text-only model', async () => {
    const conversation = await cody.create(SELECTIONS['openai-chat']);
    await drain(conversation.submit('what is this?', { images: [join(harness.home, 'shot.png')] }));
    harness.server.reset();
    conversation.setSelection({ ...SELECTIONS['openai-chat'], model: TEXT_ONLY['openai-chat'] });
    const compacted = await drain(conversation.compact());
    expect(compacted.at(-1)).toMatchObject({ type: 'turn-complete' });
    const [summary] = harness.server.modelRequests('openai-chat');
    const body = JSON.stringify(summary?.body);
    expect(body).toContain('[image: shot.png]');
    expect(body).not.toContain(PNG_1X1_BASE64);
  });
});
