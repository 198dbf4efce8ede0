/**
 * Issue 36 §3: without a sandbox, full-auto runs unasked only what Cody can show stays in the workspace.
 * Each command below left the workspace (or could) when run unasked; through the runtime's real
 * `decide` (shell-analysis, known-effects, the policy), it now asks under full-auto with no sandbox, runs
 * as before with one, and runs with `unconfined` (`--dangerously-skip-confinement`) unless the analysis
 * sees it reach outside. `OUT` stands for a directory outside the workspace.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolRuntime, type CodyToolRuntime } from '../../../../src/core/tools/runtime.js';

type Verdict = 'allow' | 'ask' | 'deny';
/** [command, with a sandbox, unconfined with no sandbox] under full-auto; with no sandbox it always asks. */
const TABLE: Array<[string, Verdict, Verdict]> = [
  // Interpreters.
  [`python3 -c "open('OUT/f', 'w').write('x')"`, 'allow', 'allow'],
  [`python3 -c "open('$HOME/.bashrc', 'a').write('x')"`, 'allow', 'ask'],
  [`python3 -c "import os; os.symlink('OUT', 'o')" && rm -rf o/*`, 'allow', 'allow'],
  [`node -e "require('fs').writeFileSync('OUT/f', 'x')"`, 'allow', 'allow'],
  [`perl -e 'open(F, ">OUT/f")'`, 'allow', 'allow'],
  [`perl -pi -e 's/a/b/' README.md`, 'allow', 'allow'],
  [`ruby -e 'File.write("OUT/f", "x")'`, 'allow', 'allow'],
  [`php -r 'file_put_contents("OUT/f", "x");'`, 'allow', 'allow'],
  [`awk 'BEGIN { print "x" > "OUT/f" }'`, 'allow', 'allow'],
  [`awk '{ print }' README.md`, 'allow', 'allow'],
  // sed scripts that write or run.
  [`sed -n 'w OUT/f' README.md`, 'allow', 'allow'],
  [`sed 's/a/b/w OUT/f' README.md`, 'allow', 'allow'],
  [`sed -e 's/a/touch OUT\\/f/e' README.md`, 'allow', 'allow'],
  [`sed '1e touch OUT/f' README.md`, 'allow', 'allow'],
  [`sed -f script.sed README.md`, 'allow', 'allow'],
  // Shells, here-documents and pipes into shells.
  [`bash <<EOF\ntouch OUT/f\nEOF`, 'allow', 'allow'],
  [`bash <<< 'touch OUT/f'`, 'allow', 'allow'],
  [`printf 'touch OUT/f' | sh`, 'allow', 'allow'],
  [`echo dG91Y2ggL3RtcC9m | base64 -d | bash`, 'allow', 'allow'],
  [`bash -c 'echo hi'`, 'allow', 'allow'],
  [`sh -c 'touch f'`, 'allow', 'allow'],
  [`zsh -c true`, 'allow', 'allow'],
  [`eval 'touch f'`, 'allow', 'allow'],
  [`source ./env.sh`, 'allow', 'allow'],
  [`. ./env.sh`, 'allow', 'allow'],
  // Shell state that changes what a later name means.
  [`alias ls='touch OUT/f'; ls`, 'allow', 'allow'],
  [
    `mkdir -p shim && printf 'touch OUT/f' > shim/ls && chmod +x shim/ls && PATH=./shim:/usr/bin ls`,
    'allow',
    'allow',
  ],
  [`printf -v PATH %s ./shim; ls`, 'allow', 'allow'],
  [`for PATH in ./shim; do ls; done`, 'allow', 'allow'],
  [`trap 'touch OUT/f' EXIT`, 'allow', 'allow'],
  [`export CDPATH=OUT; cd f`, 'allow', 'allow'],
  [`: \${CDPATH:=OUT}; cd f`, 'allow', 'allow'],
  [`export BASH_ENV=evil.sh; bash -c true`, 'allow', 'allow'],
  [`ENV=evil.sh sh -c true`, 'allow', 'allow'],
  // Wrappers that run another program.
  [`env -C OUT touch f`, 'allow', 'allow'],
  [`env -S 'touch OUT/f'`, 'allow', 'allow'],
  [`setsid sh -c 'touch OUT/f'`, 'allow', 'allow'],
  [`script -qc 'touch OUT/f' /dev/null`, 'allow', 'allow'],
  [`flock .lock -c 'touch OUT/f'`, 'allow', 'allow'],
  [`nohup touch f`, 'allow', 'allow'],
  [`timeout 5 touch f`, 'allow', 'allow'],
  [`nice -n 5 touch f`, 'allow', 'allow'],
  [`xargs touch < list.txt`, 'allow', 'ask'],
  [`find . -name a.txt -exec touch OUT/f \\;`, 'allow', 'ask'],
  // git commands that run hooks, aliases or programs from config, or work elsewhere.
  [`git -c alias.x='!touch OUT/f' x`, 'allow', 'allow'],
  [`git --work-tree OUT checkout -- .`, 'allow', 'ask'],
  [`git rebase --exec 'touch OUT/f' HEAD~1`, 'allow', 'allow'],
  [`git config core.hooksPath hooks`, 'allow', 'allow'],
  [`git commit -m message`, 'allow', 'allow'],
  [`git checkout -b topic`, 'allow', 'allow'],
  // Archives.
  [`tar -xf a.tar -COUT`, 'allow', 'allow'],
  [`tar -xf a.tar`, 'allow', 'allow'],
  [`unzip -o a.zip -dOUT`, 'allow', 'allow'],
  // Build and test tools run the repository's own code.
  [`npm test`, 'allow', 'allow'],
  [`make`, 'allow', 'allow'],
  [`pytest -q`, 'allow', 'allow'],
  [`cargo build`, 'allow', 'allow'],
  [`./run.sh`, 'allow', 'allow'],
  // Options that add an effect to a known program.
  [`sort --compress-program=./x README.md`, 'allow', 'allow'],
  [`rg --pre ./x needle`, 'allow', 'allow'],
  [`sort -o/tmp/cody-sorted README.md`, 'allow', 'allow'],
  [`cp -s README.md link.md`, 'allow', 'allow'],
  // A symbolic link moved, then followed, in one line.
  [`mv deep/up up && rm -rf up/victim`, 'allow', 'allow'],
  [`cp -r deep copy && rm -rf copy/up/victim`, 'allow', 'allow'],
  [`ln -s .. o && rm -rf o/victim`, 'ask', 'ask'],
];

/** What full-auto without a sandbox still runs unasked: every effect known, every path inside. */
const STAYS_INSIDE = [
  'ls -la',
  'cat README.md | head -5',
  'grep -rn needle .',
  "sed -n '1,5p' README.md",
  "sed -i -e 's/a/b/g' README.md",
  'mkdir -p dist && touch dist/x && cp README.md dist/ && rm -rf dist/x && mv dist/README.md dist/b',
  'echo hi > out.txt && cat out.txt | tee copy.txt',
  'git status && git diff HEAD -- .',
  "find . -name '*.o' -delete",
  'set -e; wc -l README.md',
  'for f in a b; do echo $f; done',
];

describe('full-auto without a sandbox runs only what stays inside (issue 36 §3)', () => {
  let root: string;
  let outside: string;
  let counter = 0;
  const runtimes: Record<'bare' | 'sandboxed' | 'unconfined', CodyToolRuntime | undefined> = {
    bare: undefined,
    sandboxed: undefined,
    unconfined: undefined,
  };

  beforeAll(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'cody-confine-')));
    outside = await realpath(await mkdtemp(join(tmpdir(), 'cody-confine-out-')));
    execFileSync('git', ['init', '-q', root]);
    await writeFile(join(root, 'README.md'), 'readme\n');
    await mkdir(join(root, 'deep'));
    // Inside from deep/, outside once moved to the root.
    await symlink('..', join(root, 'deep/up'));
    const none = { available: false as const, why: 'none' };
    runtimes.bare = createToolRuntime({ cwd: root, policy: 'full-auto', detectSandbox: () => none });
    runtimes.unconfined = createToolRuntime({
      cwd: root,
      policy: 'full-auto',
      detectSandbox: () => none,
      unconfined: true,
    });
    runtimes.sandboxed = createToolRuntime({
      cwd: root,
      policy: 'full-auto',
      detectSandbox: () => ({ available: true, bwrap: '/usr/bin/bwrap' }),
    });
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  });

  const decide = (which: keyof typeof runtimes, command: string) => {
    const tools = runtimes[which];
    if (!tools) throw new Error('no runtime');
    return tools.decide({
      type: 'function_call',
      name: 'shell',
      arguments: JSON.stringify({ command: command.replaceAll('OUT', outside) }),
      call_id: `call_${(counter += 1)}`,
    });
  };

  it('covers at least 64 commands', () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(64);
  });

  for (const [command, sandboxed, unconfined] of TABLE) {
    it(command.replace(/\n/g, '⏎'), async () => {
      const bare = await decide('bare', command);
      expect({
        bare: bare.kind,
        sandboxed: (await decide('sandboxed', command)).kind,
        unconfined: (await decide('unconfined', command)).kind,
      }).toEqual({ bare: 'ask', sandboxed, unconfined });
      expect(bare.kind === 'ask' && bare.reason).toMatch(/with no sandbox|outside the workspace/);
    });
  }

  it('says why: the program Cody cannot follow', async () => {
    const decision = await decide('bare', `python3 -c "print(1)"`);
    expect(decision.kind === 'ask' && decision.reason).toBe(
      'with no sandbox, full-auto runs unasked only what Cody can show stays in the workspace, and python3 may run code Cody cannot follow: python3 -c "print(1)"',
    );
  });

  for (const command of STAYS_INSIDE)
    it(`runs unasked: ${command}`, async () => {
      expect((await decide('bare', command)).kind).toBe('allow');
    });

  it('a PATH entry inside the workspace makes every program suspect', async () => {
    const tools = createToolRuntime({
      cwd: root,
      policy: 'full-auto',
      detectSandbox: () => ({ available: false, why: 'none' }),
      shellEnvironment: { set: { PATH: `${root}/bin:/usr/bin` } },
    });
    const decision = await tools.decide({
      type: 'function_call',
      name: 'shell',
      arguments: JSON.stringify({ command: 'ls' }),
      call_id: 'call_path',
    });
    expect(decision.kind === 'ask' && decision.reason).toContain(`PATH holds ${root}/bin`);
  });
});
