/** The tokenizer behind the shell analysis: words, operators, redirections, here-documents. */
import { describe, expect, it } from 'vitest';
import { parseShell } from '../../../../src/core/tools/shell-parse.js';

const shape = (line: string) => {
  const parsed = parseShell(line);
  if (!parsed.ok) return parsed.reason;
  return parsed.commands.map((command) => ({
    words: command.words.map((word) => (word.dynamic ? `{${word.text}}` : word.text)),
    redirects: command.redirects.map((redirect) => `${redirect.op}${redirect.target.text}`),
    piped: command.piped,
  }));
};

describe('parseShell', () => {
  it('removes quotes and splits on ; && || | & and newlines', () => {
    expect(shape(`a 'b c' "d e"\\ f && g || h | i & j\nk`)).toEqual([
      { words: ['a', 'b c', 'd e f'], redirects: [], piped: false },
      { words: ['g'], redirects: [], piped: false },
      { words: ['h'], redirects: [], piped: false },
      { words: ['i'], redirects: [], piped: true },
      { words: ['j'], redirects: [], piped: false },
      { words: ['k'], redirects: [], piped: false },
    ]);
  });

  it('reads redirections with fd prefixes and dups, and marks expansions as unknown', () => {
    expect(shape('cmd 2>&1 >out.txt 2>>err &>/dev/null <in "$HOME/x" ~/y')).toEqual([
      {
        words: ['cmd', '{$HOME/x}', '~/y'],
        redirects: ['>&1', '>out.txt', '>>err', '&>/dev/null', '<in'],
        piped: false,
      },
    ]);
  });

  it('skips here-document bodies; a substitution there counts only under an unquoted delimiter', () => {
    expect(shape("cat > f <<'EOF'\n$(rm -rf /)\nEOF\nls")).toEqual([
      { words: ['cat'], redirects: ['>f', '<<EOF'], piped: false },
      { words: ['ls'], redirects: [], piped: false },
    ]);
    expect(shape('cat <<EOF\n$(rm -rf /)\nEOF')).toBe('a here-document uses command substitution');
    expect(shape('cat <<EOF\nno end')).toBe('a here-document is not closed');
  });

  it('refuses what it cannot see through', () => {
    expect(shape('echo $(id)')).toBe('it uses command substitution');
    expect(shape('echo "`id`"')).toBe('it uses command substitution');
    expect(shape('(cd /; ls)')).toBe('it uses a subshell or a grouping');
    expect(shape('diff <(a) <(b)')).toBe('it uses process substitution');
    expect(shape("echo 'open")).toBe('a quote is not closed');
    expect(shape('echo ${x:-$(id)}')).toBe('it uses command substitution');
    expect(shape('ls >')).toBe('a redirection has no target');
  });

  it('keeps comments out and #, $ and ~ literal where the shell does', () => {
    expect(shape('echo a#b $ "~" # rm -rf /')).toEqual([
      { words: ['echo', 'a#b', '$', '~'], redirects: [], piped: false },
    ]);
  });
});
