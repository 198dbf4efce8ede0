/**
 * A context window as a sentence says it: `an 8,192-token`, `a 128,000-token` (thousands separated, and
 * the article the spoken number takes: "an" before eight, eleven, eighteen, eighty…).
 */
export function tokenWindowPhrase(tokens: number): string {
  const written = tokens.toLocaleString('en-US');
  const lead = written.split(',')[0] ?? written;
  const vowel = /^8/.test(lead) || lead === '11' || lead === '18';
  return `${vowel ? 'an' : 'a'} ${written}-token`;
}
