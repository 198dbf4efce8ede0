import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runStatusCommand } from '../../../../src/cli/status-line/run-status-command.js';

const cwd = tmpdir();
/** Whether `pid` still runs (a zombie nobody reaped yet has ended). */
const alive = (pid: number): boolean => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

describe('running the statusLine command', () => {
  it('gives it the state as JSON on stdin, in the workspace, without provider keys', async () => {
    const env = { PATH: process.env.PATH, OPENAI_API_KEY: 'sk-secret', MY_TOKEN: 't', HOME: '/h' };
    const result = await runStatusCommand(
      `node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const j=JSON.parse(s);console.log(j.model.id+" "+process.cwd()+" "+(process.env.OPENAI_API_KEY??"none")+" "+(process.env.MY_TOKEN??"none"))})'`,
      { model: { id: 'gpt-x' } },
      { cwd, env },
    );
    expect(result).toEqual({ kind: 'line', text: `gpt-x ${cwd} none none` });
  });

  it('kills the whole process group when it takes too long', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cody-status-'));
    const started = Date.now();
    const result = await runStatusCommand(
      `sleep 30 & echo $! > ${dir}/pid; wait`,
      {},
      {
        cwd,
        env: process.env,
        timeoutMs: 300,
      },
    );
    expect(result).toEqual({ kind: 'failed', reason: 'timed out after 300 ms' });
    expect(Date.now() - started).toBeLessThan(2000);
    const pid = Number(readFileSync(join(dir, 'pid'), 'utf8'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(alive(pid)).toBe(false);
  });

  it('reads a bounded amount: one line of a flood is shown and the flood stopped', async () => {
    const result = await runStatusCommand('yes "$(printf "%0200d" 0)"', {}, { cwd, env: process.env });
    expect(result.kind).toBe('line');
    expect(result.kind === 'line' ? result.text : '').toBe('0'.repeat(200));
    const endless = await runStatusCommand(
      'head -c 100000 /dev/zero | tr "\\0" x; sleep 5',
      {},
      {
        cwd,
        env: process.env,
      },
    );
    expect(endless.kind === 'line' ? endless.text.length : 0).toBe(4096);
  });

  it('says how it failed (an exit status)', async () => {
    expect(await runStatusCommand('echo partial; exit 3', {}, { cwd, env: process.env })).toEqual({
      kind: 'line',
      text: 'partial',
    });
    expect(await runStatusCommand('exit 3', {}, { cwd, env: process.env })).toEqual({
      kind: 'failed',
      reason: 'exited with 3',
    });
  });
});
