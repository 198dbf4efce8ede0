/** Building the message a person sends from what they typed and what they piped in. */

/**
 * `echo data | cody chat "summarize this:"`: the piped text follows the typed message as a fenced block
 * (the fence longer than any backtick run inside it, so the block cannot be closed early).
 */
export function withStdinBlock(typed: string, piped: string): string {
  const data = piped.replace(/\n+$/, '');
  if (data.trim() === '') return typed;
  if (typed.trim() === '') return data;
  const longestRun = Math.max(2, ...Array.from(data.matchAll(/`+/g), (match) => match[0].length));
  const fence = '`'.repeat(longestRun + 1);
  return `${typed}\n\n${fence}\n${data}\n${fence}`;
}
