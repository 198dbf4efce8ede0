/**
 * The approval question component (issue 19 §2) on raw keys and on lines, with a clock the test moves:
 * keys within the guard after the question never answer (and each one ignored extends it), Enter alone
 * never answers, only y / a / n / Esc do, "always" names its scope, and a long preview is never cut silently.
 */
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import {
  askWithKeys,
  askWithLines,
  GUARD_MS,
  questionText,
  type ApprovalAnswer,
  type ApprovalRequest,
} from '../../../src/cli/approval-question.js';
import type { Key } from '../../../src/cli/tty/keys.js';

const color = new Chalk({ level: 0 });

function request(extra: Partial<ApprovalRequest> = {}): ApprovalRequest {
  return {
    type: 'approval-requested',
    id: 'a1',
    call: {
      type: 'function_call',
      name: 'shell',
      arguments: JSON.stringify({ command: 'git status' }),
      call_id: 'c1',
    },
    reason: 'run: git status',
    alwaysScope: { kind: 'command', label: 'git status' },
    ...extra,
  };
}

/** A raw-key question driven by hand: the keys it gets, the clock, and what it wrote. */
function keyQuestion(event: ApprovalRequest) {
  let time = 1_000;
  let listener: ((key: Key) => void) | undefined;
  let output = '';
  let settled: ApprovalAnswer | undefined;
  const answer = askWithKeys(
    { listen: (next) => (listener = next), columns: () => 80 },
    (text) => (output += text),
    event,
    { color, now: () => time },
  ).then((value) => (settled = value));
  const text = (value: string): Key => ({ name: 'text', text: value });
  return {
    answer,
    press: (key: Key | string) => listener?.(typeof key === 'string' ? text(key) : key),
    wait: (ms: number) => (time += ms),
    output: () => output,
    settled: async () => {
      await Promise.resolve();
      return settled;
    },
  };
}

describe('the approval question on raw keys', () => {
  it('ignores keys within the guard, and each ignored key extends it; says so once', async () => {
    const question = keyQuestion(request());
    question.wait(100);
    question.press('n');
    question.wait(250); // 350 ms after the question, but only 250 after the last ignored key
    question.press('a');
    question.wait(250);
    question.press({ name: 'enter' });
    expect(await question.settled()).toBeUndefined();
    expect(question.output().match(/keys typed as the question appeared are ignored/g)).toHaveLength(1);
    question.wait(GUARD_MS);
    question.press('y');
    expect(await question.answer).toEqual({ decision: 'approve' });
    expect(question.output()).toContain('→ yes');
  });

  it('Enter alone does not answer, nor does any other key; a answers with the named scope', async () => {
    const question = keyQuestion(request());
    expect(question.output()).toContain('[a] always for: git status');
    question.wait(GUARD_MS);
    question.press({ name: 'enter' });
    question.press('x');
    question.press({ name: 'tab' });
    expect(await question.settled()).toBeUndefined();
    expect(question.output()).toContain('Enter alone does not answer');
    question.press('A');
    expect(await question.answer).toEqual({ decision: 'approve-session' });
    expect(question.output()).toContain('→ always for: git status');
  });

  it('without a scope, "always" is not offered and a does not answer', async () => {
    const question = keyQuestion(request({ alwaysScope: undefined }));
    expect(question.output()).not.toContain('[a]');
    question.wait(GUARD_MS);
    question.press('a');
    expect(await question.settled()).toBeUndefined();
    expect(question.output()).toContain('no "always" for this call');
    question.press('n');
    question.press('too risky');
    question.press({ name: 'enter' });
    expect(await question.answer).toEqual({ decision: 'deny', reason: 'too risky' });
  });

  it('Esc stops the turn at once, guard or not', async () => {
    const question = keyQuestion(request());
    question.press({ name: 'escape' });
    expect(await question.answer).toEqual({ decision: 'abort' });
  });

  it('a 31-line preview: 20 lines, a marker naming the rest, and v shows them all before answering', async () => {
    const lines = Array.from({ length: 30 }, (_, index) => `+line ${index + 1}`);
    lines.push('+SECRET_LAST_LINE');
    const question = keyQuestion(request({ preview: lines.join('\n') }));
    expect(question.output()).toContain('  … 11 more lines (v to view all)');
    expect(question.output()).not.toContain('SECRET_LAST_LINE');
    question.wait(GUARD_MS);
    question.press('v');
    expect(question.output()).toContain('  +SECRET_LAST_LINE');
    expect(await question.settled()).toBeUndefined();
    question.press('y');
    expect(await question.answer).toEqual({ decision: 'approve' });
  });

  it('a preview that fits is shown whole, with no marker', () => {
    const question = keyQuestion(request({ preview: 'a\nb\nc' }));
    expect(question.output()).toContain('  a\n  b\n  c\n');
    expect(question.output()).not.toContain('more lines');
  });
});

describe('the approval question on lines', () => {
  /** Lines given in order; each arrives at the time its entry says (ms after the question). */
  const ask = async (entries: Array<[number, string]>, event = request()) => {
    let time = 0;
    let output = '';
    const queue = [...entries];
    const answer = await askWithLines(
      {
        nextLine: () => {
          const next = queue.shift();
          if (next) time = next[0];
          return Promise.resolve(next?.[1]);
        },
      },
      (text) => (output += text),
      event,
      { color, now: () => time },
    );
    return { answer, output };
  };

  it('has the same choices and wording; a line typed before the question is ignored', async () => {
    const { answer, output } = await ask([
      [5, 'n'],
      [400, ''],
      [700, 'a'],
    ]);
    expect(answer).toEqual({ decision: 'approve-session' });
    expect(output).toContain('[y] yes, once   [a] always for: git status   [n] no, and tell the model why');
    expect(output).toContain('keys typed as the question appeared are ignored');
    expect(output).toContain('Enter alone does not answer');
    expect(output).toContain('→ always for: git status');
  });

  it('v shows the whole preview; n asks why; the end of input stops the turn', async () => {
    const preview = Array.from({ length: 40 }, (_, index) => `+${index}`).join('\n');
    const denied = await ask(
      [
        [500, 'v'],
        [600, 'n'],
        [700, 'not now'],
      ],
      request({ preview }),
    );
    expect(denied.output).toContain('… 20 more lines (v to view all)');
    expect(denied.output).toContain('  +39');
    expect(denied.answer).toEqual({ decision: 'deny', reason: 'not now' });
    expect((await ask([])).answer).toEqual({ decision: 'abort' });
    expect((await ask([[500, 'esc']])).answer).toEqual({ decision: 'abort' });
  });
});

describe('every approval preview has line numbers (issue 29)', () => {
  it('a write_file question shows the new file numbered, not the bare +lines of its preview', () => {
    const event = request({
      call: {
        type: 'function_call',
        name: 'write_file',
        arguments: JSON.stringify({ path: 'no-such-dir-x/new.txt', content: 'alpha\nbeta\n' }),
        call_id: 'c2',
      },
      reason: 'write no-such-dir-x/new.txt (11 characters)',
      preview: '+++ no-such-dir-x/new.txt (new file)\n+alpha\n+beta',
    });
    const { lines } = questionText(event, color);
    expect(lines.slice(1)).toEqual([
      '  --- /dev/null',
      '  +++ b/no-such-dir-x/new.txt',
      '  @@ -0,0 +1,2 @@',
      '  1 + alpha',
      '  2 + beta',
    ]);
  });
});
