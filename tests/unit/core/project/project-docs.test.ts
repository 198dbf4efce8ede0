/**
 * Project instructions Cody reads on its own (issue 36.5): a FIFO, a device or a link out of the workspace
 * is refused at once with a warning the person sees, and none of its content reaches the model; a huge
 * file is read only up to projectDocMaxBytes.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCody } from '../../../../src/core/engine/cody.js';
import type { SessionEvent } from '../../../../src/core/conversation/session-events.js';
import { loadProjectInstructions } from '../../../../src/core/project/index.js';
import type { ModelClient, ModelRequest, StreamEvent } from '../../../../src/protocol/index.js';

const FAKE_KEY = 'sk-proj-FAKEFAKEFAKE0123456789abcdefFAKE';

/** Answers "ok" and keeps every request it was sent. */
class RecordingClient implements ModelClient {
  readonly api = 'openai-chat' as const;
  readonly model = 'gpt-4.1-mini';
  readonly requests: ModelRequest[] = [];
  async *stream(request: ModelRequest): AsyncGenerator<StreamEvent> {
    this.requests.push(request);
    yield {
      type: 'item',
      item: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'ok' }] },
    };
    yield { type: 'finish', reason: 'stop' };
  }
}

describe('project instructions Cody reads on its own', () => {
  let directory: string;
  let home: string;
  let workspace: string;
  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'cody-docs-'));
    home = join(directory, 'home');
    workspace = join(directory, 'workspace');
    await mkdir(home);
    await mkdir(join(workspace, '.git'), { recursive: true });
  });
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  const load = () => loadProjectInstructions({ home, cwd: workspace, config: {} });

  it('refuses an AGENTS.md FIFO at once, with a warning', async () => {
    execFileSync('mkfifo', [join(workspace, 'AGENTS.md')]);
    await writeFile(join(workspace, 'CLAUDE.md'), 'not taken: AGENTS.md is there');
    const started = Date.now();
    const instructions = await load();
    expect(Date.now() - started).toBeLessThan(500);
    expect(instructions.text).toBeUndefined();
    expect(instructions.warnings).toEqual([
      `Project instructions not read: ${join(workspace, 'AGENTS.md')} is a FIFO, not a regular file.`,
    ]);
  });

  it('refuses AGENTS.md linking to /dev/zero as outside the workspace', async () => {
    await symlink('/dev/zero', join(workspace, 'AGENTS.md'));
    const instructions = await load();
    expect(instructions.text).toBeUndefined();
    expect(instructions.warnings[0]).toMatch(/AGENTS\.md links to \/dev\/zero, outside .*workspace\.$/);
  });

  it('reads a link inside the workspace, and the user their own link anywhere', async () => {
    await writeFile(join(workspace, 'rules.md'), 'PROJECT-RULE');
    await symlink('rules.md', join(workspace, 'AGENTS.md'));
    await writeFile(join(directory, 'dotfiles.md'), 'HOME-RULE');
    await symlink(join(directory, 'dotfiles.md'), join(home, 'AGENTS.md'));
    const instructions = await load();
    expect(instructions.warnings).toEqual([]);
    expect(instructions.text).toContain('HOME-RULE');
    expect(instructions.text).toContain('PROJECT-RULE');
  });

  it('reads a huge AGENTS.md only up to projectDocMaxBytes', async () => {
    const path = join(workspace, 'AGENTS.md');
    await writeFile(path, 'HUGE-START ');
    await truncate(path, 8 * 1024 * 1024 * 1024);
    const instructions = await load();
    expect(instructions.truncated).toBe(true);
    expect(instructions.files).toEqual([{ path, bytes: 8 * 1024 * 1024 * 1024, scope: 'project' }]);
    expect(instructions.text).toContain('HUGE-START');
    expect(instructions.text?.length).toBeLessThan(33 * 1024);
  });

  it('never sends what a link out of the workspace points at, and warns the person in the turn', async () => {
    const secret = join(directory, 'auth.json');
    await writeFile(secret, JSON.stringify({ tokens: { access_token: FAKE_KEY } }));
    await symlink(secret, join(workspace, 'AGENTS.md'));
    const client = new RecordingClient();
    const cody = createCody({
      home,
      env: {},
      cwd: workspace,
      tools: false,
      clientFactory: () => Promise.resolve(client),
    });
    try {
      const conversation = await cody.create();
      const events: SessionEvent[] = [];
      for await (const event of conversation.submit('hello')) events.push(event);
      expect(events.at(-1)).toMatchObject({ type: 'turn-complete', status: 'completed' });
      expect(events).toContainEqual({
        type: 'warning',
        message: `Project instructions not read: ${join(workspace, 'AGENTS.md')} links to ${secret}, outside ${workspace}.`,
      });
      const sent = JSON.stringify(client.requests);
      expect(sent).toContain('hello');
      expect(sent).not.toContain('FAKEFAKE');
      expect(sent).not.toContain('access_token');
    } finally {
      await cody.close();
    }
  });
});
