/** The streamed reply's Markdown lexed incrementally: the same tokens as lexing it whole, for less work. */
import { Lexer, type Token } from 'marked';
import { describe, expect, it } from 'vitest';
import { lexMarkdown, type LexedText } from '../../../src/web/markdown-blocks.js';

function counting(): { lex: (text: string) => Token[]; chars: () => number } {
  let chars = 0;
  return {
    lex: (text) => {
      chars += text.length;
      return Lexer.lex(text, { gfm: true });
    },
    chars: () => chars,
  };
}

function stream(text: string, chunks: number, lex: (text: string) => Token[]): LexedText[] {
  const states: LexedText[] = [];
  let state: LexedText | undefined;
  for (let index = 1; index <= chunks; index += 1) {
    state = lexMarkdown(state, text.slice(0, Math.round((text.length * index) / chunks)), lex);
    states.push(state);
  }
  return states;
}

const shape = (tokens: readonly Token[]) => JSON.parse(JSON.stringify(tokens)) as unknown;

const SAMPLES = [
  '# Title\n\nA paragraph with **bold** and `code`.\n\n- one\n- two\n\n  still two\n- three\n\n```ts\nconst a = 1;\n\nconst b = 2;\n```\n\nAfter.\n',
  'Para\n===\n\nText\n\n| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n\n> quote\n> more\n\n1. x\n2. y\n\n---\n\nend',
  '- a\n\n- b\n\n\n  - nested\n    deeper\n\nlazy\nline\n\n    indented code\n\n<div>raw html</div>\n\n~~~\nunclosed fence\n\n# not a heading',
  'Line with trailing spaces  \nnext\n\n* [ ] task\n* [x] done\n\nText then\n# heading\nand ```inline``` end\n',
];

describe('lexMarkdown', () => {
  for (const [index, sample] of SAMPLES.entries()) {
    it(`gives the tokens of a whole lex at every chunk (sample ${index + 1})`, () => {
      for (const chunks of [sample.length, 7, 31]) {
        const states = stream(sample, chunks, (text) => Lexer.lex(text, { gfm: true }));
        for (const state of states) {
          expect(shape(state.tokens)).toEqual(shape(Lexer.lex(state.text, { gfm: true })));
        }
      }
    });
  }

  it('lexes a 2,000-chunk reply in linear work, keeping finished blocks as the same objects', () => {
    const text = Array.from(
      { length: 60 },
      (_, i) => `## Part ${i}\n\nSome *text* ${i}.\n\n- a\n- b\n\n\`\`\`\ncode ${i}\n\`\`\`\n\n`,
    ).join('');
    const counter = counting();
    const states = stream(text, 2000, counter.lex);
    const last = states.at(-1);
    expect(shape(last?.tokens ?? [])).toEqual(shape(Lexer.lex(text, { gfm: true })));
    // Lexing the whole text on every chunk would be ~1,000 times its length.
    expect(counter.chars()).toBeLessThan(text.length * 20);
    // A block finished early is the same token object at the end (so its elements are reused).
    expect(last?.tokens[0]).toBe(states[100]?.tokens[0]);
  });

  it('lexes the whole text again when a link definition appears, or the text is not the old one plus more', () => {
    const counter = counting();
    const first = lexMarkdown(undefined, 'See [x][ref].\n\nMore text.\n\nAnd more.\n\n', counter.lex);
    const defined = lexMarkdown(first, `${first.text}[ref]: https://example.com\n`, counter.lex);
    expect(shape(defined.tokens)).toEqual(shape(Lexer.lex(defined.text, { gfm: true })));
    expect(JSON.stringify(defined.tokens)).toContain('"type":"link"');
    expect(defined.whole).toBe(true);
    const replaced = lexMarkdown(first, 'Other text.\n', counter.lex);
    expect(replaced.tokens).toHaveLength(Lexer.lex('Other text.\n').length);
  });
});
