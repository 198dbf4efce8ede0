/**
 * Hooks through the built `cody chat` (one spawn, several hooks at once): a PreToolUse hook on Bash
 * blocking `rm -rf` by exit 2 as Claude Code documents it, a PostToolUse formatter on Edit|Write reading
 * `tool_input.file_path`, UserPromptSubmit context reaching the request, a hung hook timing out as a
 * warning, and an untrusted project hook that never runs. The rest is tested in process
 * (tests/unit/core/hooks).
 */
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness, linesOfType } from './harness.js';

describe('hooks in cody chat', () => {
  let harness: Harness;
  beforeEach(async () => {
    harness = await createHarness();
  });
  afterEach(async () => {
    await harness.close();
  });

  const script = async (name: string, body: string): Promise<string> => {
    const path = join(harness.home, name);
    await writeFile(path, body);
    await chmod(path, 0o755);
    return path;
  };

  it('runs the configured hooks around a turn, and never an untrusted project hook', async () => {
    const block = await script(
      'block-rm.sh',
      `#!/bin/bash
COMMAND=$(node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).tool_input.command))')
if echo "$COMMAND" | grep -q 'rm -rf'; then
  echo "Destructive command blocked by hook" >&2
  exit 2
fi
exit 0
`,
    );
    const format = await script(
      'format.sh',
      `#!/bin/sh
FILE=$(node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).tool_input.file_path))')
tr a-z A-Z < "$FILE" > "$FILE.tmp" && mv "$FILE.tmp" "$FILE"
`,
    );
    await harness.writeConfig({
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: block }] }],
        PostToolUse: [{ matcher: 'Edit|Write', hooks: [{ type: 'command', command: format }] }],
        UserPromptSubmit: [
          { hooks: [{ type: 'command', command: 'echo "Team rule: never push on Fridays."' }] },
          { hooks: [{ type: 'command', command: 'sleep 30', timeout: 0.5 }] },
        ],
      },
    });
    const marker = join(harness.home, 'pwned');
    // The harness runs cody in its home, whose .cody is CODY_HOME too: the workspace's .cody/hooks.json.
    await mkdir(join(harness.home, '.cody'), { recursive: true });
    await writeFile(
      join(harness.home, '.cody', 'hooks.json'),
      JSON.stringify({
        hooks: { SessionStart: [{ hooks: [{ type: 'command', command: `touch ${marker}` }] }] },
      }),
    );
    await mkdir(join(harness.home, 'build'));
    harness.server.enqueue(
      {
        type: 'reply',
        toolCalls: [
          { id: 'call_rm', name: 'shell', arguments: { command: 'rm -rf build' } },
          { id: 'call_write', name: 'write_file', arguments: { path: 'notes.txt', content: 'hello\n' } },
        ],
      },
      { type: 'reply', text: 'All done.' },
    );
    const run = await harness.cody(['chat', '--approval', 'full-auto', 'tidy up']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('All done.');
    expect(existsSync(join(harness.home, 'build'))).toBe(true);
    expect(await readFile(join(harness.home, 'notes.txt'), 'utf8')).toBe('HELLO\n');
    expect(existsSync(marker)).toBe(false);
    expect(run.stderr).toMatch(
      /warning: Project hooks in \.cody\/hooks\.json are not trusted and were skipped/,
    );
    expect(run.stderr).toMatch(/warning: Hook: hook "sleep 30" timed out/);
    expect(run.stderr).toMatch(/↳ hook PreToolUse: \S*block-rm\.sh → deny/);
    const requests = harness.server.modelRequests();
    expect(JSON.stringify(requests[0]?.body)).toContain('Team rule: never push on Fridays.');
    expect(JSON.stringify(requests[1]?.body)).toContain('Destructive command blocked by hook');
    const id = (await readFile(join(harness.env.CODY_HOME ?? '', 'active'), 'utf8')).trim();
    const hooks = linesOfType(await harness.rollout(id), 'event_msg')
      .map((line) => line.payload)
      .filter((payload) => payload.type === 'hook');
    expect(hooks.map((hook) => [hook.hook_event_name, hook.decision ?? null, hook.status])).toEqual([
      ['UserPromptSubmit', 'context', 'ok'],
      ['UserPromptSubmit', null, 'timeout'],
      ['PreToolUse', 'deny', 'ok'],
      ['PostToolUse', null, 'ok'],
    ]);
  });
});
