/**
 * A rollout written before Cody wrote Codex-readable lines (tests/fixtures/cody-rollouts: `turn_complete`,
 * `context_compacted` and `turn_aborted` as `event_msg`, Claude's and Gemini's reasoning as `reasoning`,
 * token counts without a total) keeps loading: listed, shown, resumed with its history, and continued,
 * after which old and new lines live side by side in one file.
 */
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness, linesOfType, REPO_ROOT } from './harness.js';

const ID = '01a20573-a5ca-7225-b716-11f3eb52db29';
const FIXTURE = join(REPO_ROOT, 'tests', 'fixtures', 'cody-rollouts', `${ID}.jsonl`);

type Json = Record<string, unknown>;

describe('rollouts written before the Codex line format', () => {
  let harness: Harness;
  beforeEach(async () => {
    harness = await createHarness();
    const conversations = join(harness.env.CODY_HOME ?? '', 'conversations');
    await mkdir(conversations, { recursive: true, mode: 0o700 });
    await copyFile(FIXTURE, join(conversations, `${ID}.jsonl`));
  });
  afterEach(async () => {
    await harness.close();
  });

  it('list, show and status read the old event names', async () => {
    const listed = JSON.parse((await harness.cody(['list', '--json', '--all'])).stdout) as Json[];
    expect(listed).toHaveLength(1);
    // From the last old-style turn_complete: 8 messages, on Gemini, one compaction.
    expect(listed[0]).toMatchObject({
      id: ID,
      provider: 'google',
      api: 'gemini',
      messageCount: 8,
      compactionCount: 1,
    });

    const shown = await harness.cody(['show', ID]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/compacted \(1\.2k → \d+ tokens\)/);
    expect(shown.stdout).toContain('[turn aborted: bad-request]');
    expect(shown.stdout).toContain('Gemini agrees.');
  });

  it('resumes the history (old reasoning shape included) and continues it on each reasoning API', async () => {
    // Claude's signed thinking, recorded as `reasoning`, goes back to Anthropic as a thinking block.
    expect((await harness.cody(['resume', ID])).code).toBe(0);
    expect((await harness.cody(['set-provider', 'anthropic'])).code).toBe(0);
    harness.server.enqueue({ type: 'reply', reasoning: 'Claude again.', text: 'Hello again.' });
    const claude = await harness.cody(['chat', 'Back on Claude.']);
    expect(claude.code, claude.stderr).toBe(0);
    const anthropic = harness.server.modelRequests('anthropic-messages').at(-1);
    expect(anthropic?.rejected).toBeUndefined();
    const body = JSON.stringify(anthropic?.body);
    expect(body).toContain('"type":"thinking","thinking":"Claude considers it."');
    expect(body).toContain('The notes say: buy milk.');
    expect(body).toContain('"tool_use"');
    expect(body).not.toContain('Step one, then the next step'); // compacted away

    // Gemini's thought summary goes back to the Gemini model family that wrote it (gemini-2.5-flash; Cody's
    // default Gemini model, a 3.x, is another family and rightly gets none).
    expect((await harness.cody(['set-provider', 'google', '--model', 'gemini-2.5-flash'])).code).toBe(0);
    expect((await harness.cody(['chat', 'Back on Gemini.'])).code).toBe(0);
    const gemini = harness.server.modelRequests('gemini').at(-1);
    expect(gemini?.rejected).toBeUndefined();
    expect(JSON.stringify(gemini?.body)).toContain('"text":"Gemini thinks.","thought":true');

    // The new lines follow the old ones, in the new shape, and the file still lists and resumes.
    const lines = await harness.rollout(ID);
    expect(linesOfType(lines, 'event_msg').map((line) => line.payload.type)).toContain('turn_complete');
    const newItems = linesOfType(lines, 'response_item').map((line) => line.payload.type);
    expect(newItems).toContain('cody_turn_complete');
    expect(newItems).toContain('cody_reasoning');
    const listed = JSON.parse((await harness.cody(['list', '--json', '--all'])).stdout) as Json[];
    expect(listed[0]).toMatchObject({ id: ID, messageCount: 12, compactionCount: 1 });
    expect((await harness.cody(['show', ID])).stdout).toContain('[turn aborted: bad-request]');
  });
});
