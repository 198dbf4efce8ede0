/**
 * A small keyword highlighter for code blocks: strings, comments, numbers and the keywords common to the
 * C family, Python, shell and Rust/Go, as spans with a class. Not a parser: a wrong colour is harmless,
 * and it costs ~1 KB where a full highlighter costs tens (DECISIONS.md has the sizes).
 */
export interface Piece {
  text: string;
  kind?: 'keyword' | 'string' | 'comment' | 'number';
}

const KEYWORDS = new Set(
  (
    'as async await break case catch class const continue def default del do elif else enum export extends ' +
    'false fi fn for from func function go if impl import in interface let loop match mod new nil None not ' +
    'null or pass package pub return self static struct super switch then this throw True true try type ' +
    'undefined use var void while with yield echo local readonly'
  ).split(' '),
);

const TOKEN =
  /(\/\/[^\n]*|#(?![!{[])[^\n]*|\/\*[\s\S]*?\*\/)|("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`)|(\b\d[\d_.xXa-fA-F]*\b)|([A-Za-z_$][\w$]*)/g;

/** Splits code into pieces; joined, their texts are the code exactly. */
export function highlight(code: string, lang: string): Piece[] {
  const hashComments = /^(py|python|sh|bash|shell|zsh|rb|ruby|toml|ya?ml|r|perl|make|dockerfile|conf)$/i.test(
    lang,
  );
  const pieces: Piece[] = [];
  let last = 0;
  for (const match of code.matchAll(TOKEN)) {
    const start = match.index;
    const [text, comment, string, number, word] = match;
    let kind: Piece['kind'];
    if (comment !== undefined) kind = comment.startsWith('#') && !hashComments ? undefined : 'comment';
    else if (string !== undefined) kind = 'string';
    else if (number !== undefined) kind = 'number';
    else if (word !== undefined && KEYWORDS.has(word)) kind = 'keyword';
    if (kind === undefined) continue;
    if (start > last) pieces.push({ text: code.slice(last, start) });
    pieces.push({ text, kind });
    last = start + text.length;
  }
  if (last < code.length) pieces.push({ text: code.slice(last) });
  return pieces;
}
