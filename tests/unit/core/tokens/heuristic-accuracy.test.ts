/**
 * Accuracy of the heuristic against the real o200k encoding (gpt-tokenizer) over bench/corpus: chat
 * prose, multilingual chat, TypeScript, Python, tool-call JSON and shell output. A unit test of
 * accuracy, not of speed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { heuristicCountText } from '../../../../src/core/tokens/index.js';

const corpusDirectory = join(import.meta.dirname, '..', '..', '..', '..', 'bench', 'corpus');
const corpus = readdirSync(corpusDirectory)
  .filter((name) => name.endsWith('.txt'))
  .sort()
  .map((name) => ({ name, text: readFileSync(join(corpusDirectory, name), 'utf8') }));
const exact = (text: string): number => countTokens(text, { disallowedSpecial: new Set() });

describe('heuristic estimate vs o200k over bench/corpus', () => {
  it('has a mixed corpus to measure', () => {
    const names = corpus.map((file) => file.name).join(' ');
    for (const kind of ['chat', 'code', 'json', 'shell']) expect(names).toContain(kind);
    expect(corpus.reduce((sum, file) => sum + exact(file.text), 0)).toBeGreaterThan(5_000);
  });

  it.each(corpus.map((file) => [file.name, file.text] as const))(
    '%s: never undercounts by more than 10%%, nor overcounts by more than 20%%',
    (_name, text) => {
      const ratio = heuristicCountText(text) / exact(text);
      expect(ratio).toBeGreaterThanOrEqual(0.9);
      expect(ratio).toBeLessThanOrEqual(1.2);
    },
  );

  it('is within 10% over the whole corpus', () => {
    const real = corpus.reduce((sum, file) => sum + exact(file.text), 0);
    const estimated = corpus.reduce((sum, file) => sum + heuristicCountText(file.text), 0);
    expect(Math.abs(estimated / real - 1)).toBeLessThanOrEqual(0.1);
  });

  it('beats characters / 4 on indented tool-call JSON, which it undercounts by about a fifth', () => {
    const json = corpus.find((file) => file.name.includes('json'));
    if (!json) throw new Error('no JSON file in the corpus');
    const real = exact(json.text);
    const quarter = json.text.length / 4 / real - 1;
    const heuristic = heuristicCountText(json.text) / real - 1;
    expect(quarter).toBeLessThan(-0.15);
    expect(Math.abs(heuristic)).toBeLessThan(Math.abs(quarter) / 2);
  });
});

describe('heuristicCountText', () => {
  it.each<[string, string, number, number]>([
    ['empty text', '', 0, 0],
    ['one word', 'hello', 1, 2],
    ['a short sentence', 'The cat sat on the mat.', 6, 9],
    ['a long run of spaces', ' '.repeat(200), 2, 6],
    ['a long rule of dashes', '-'.repeat(300), 2, 15],
    ['digits in groups of three', '1234567890', 4, 5],
    ['CJK', '東京駅の近くに泊まるのが便利です', 8, 16],
    ['emoji', '😀🎉👍', 3, 8],
    ['hex ids', 'c5fb850250c7 0123456789abcdef', 10, 20],
  ])('%s: between %i and %i tokens', (_name, text, low, high) => {
    const count = heuristicCountText(text);
    expect(count).toBeGreaterThanOrEqual(low);
    expect(count).toBeLessThanOrEqual(high);
  });
});
