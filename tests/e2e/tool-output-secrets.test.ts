/**
 * Issue 36 §6 through the built `cody`: the shell tool reads the environment of Cody's own process
 * (`/proc/<pid>/environ`, with the variables tools are not given) with a Python here-doc and prints it plain,
 * as base64 and as hex. The keys are gone from the next request, the rollout and the screen; the rest
 * of the output reached the model. (Every wire API and every form: tests/unit/core/turn.)
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, FAKE_KEYS, type Harness } from './harness.js';
import { toolExchanges } from './wire-tools.js';
import { readableSecrets } from '../unit/core/redact/read-back.js';

const MORE_KEYS = {
  AWS_SECRET_ACCESS_KEY: 'aws-secret-Tq8/Lm3+Vx5Rb1Nc',
  AWS_SESSION_TOKEN: 'aws-session-Hy6Wd2Pk9Js4',
  OPENROUTER_API_KEY: 'or-test-Zf7Gc1Xu5Ma8',
} as const;

/** Python's parent is the shell; the shell's parent is Cody. */
const SCRIPT = `python3 - <<'EOF'
import base64, os
status = open('/proc/%d/status' % os.getppid()).read()
cody = [line.split()[1] for line in status.splitlines() if line.startswith('PPid:')][0]
data = open('/proc/%s/environ' % cody, 'rb').read()
print(data.replace(b'\\0', b'\\n').decode())
print(base64.b64encode(data).decode())
print(data.hex())
print('environment-read-done')
EOF`;

describe('tool output secrets end to end', () => {
  let harness: Harness;
  beforeEach(async () => {
    harness = await createHarness();
    await harness.writeConfig({ sandbox: { enabled: false } });
  });
  afterEach(async () => {
    await harness.close();
  });

  it("a here-doc printing Cody's own environment: no key in the request, the rollout or on screen", async () => {
    harness.server.enqueue(
      { type: 'reply', toolCalls: [{ id: 'call_env', name: 'shell', arguments: { command: SCRIPT } }] },
      { type: 'reply', text: 'Read it.' },
    );
    const run = await harness.cody(
      [
        'chat',
        '--approval',
        'full-auto',
        // An interpreter asks without a sandbox; the bypass lets the here-doc run as an attacker's would.
        '--dangerously-skip-confinement',
        '--output-format',
        'stream-json',
        'read the environment',
      ],
      {
        env: MORE_KEYS,
      },
    );
    expect(run.code, run.stderr).toBe(0);
    const second = harness.server.modelRequests()[1];
    if (!second) throw new Error('no second request');
    const output = toolExchanges(second).outputs[0]?.text ?? '';
    // The script ran on Cody's environment and its output reached the model: only the keys are missing.
    expect(output).toContain('environment-read-done');
    expect(output).toContain(`CODY_HOME=${harness.env.CODY_HOME ?? ''}`);
    expect(output).toContain('OPENAI_API_KEY=[REDACTED]');
    const active = (await readFile(join(harness.env.CODY_HOME ?? '', 'active'), 'utf8')).trim();
    const rollout = (await harness.rollout(active)).join('\n');
    const secrets = [...Object.values(FAKE_KEYS), ...Object.values(MORE_KEYS)];
    for (const [where, text] of Object.entries({
      output,
      body: JSON.stringify(second.body),
      rollout,
      stdout: run.stdout,
      stderr: run.stderr,
    }))
      expect(readableSecrets(text, secrets), where).toEqual([]);
    // The check itself finds each key in an unredacted environment's base64 and hex.
    const environ = Buffer.from(secrets.map((secret) => `KEY=${secret}`).join('\0'));
    for (const form of [environ.toString('base64'), environ.toString('hex')])
      expect(readableSecrets(form, secrets)).toEqual(secrets);
  });
});
