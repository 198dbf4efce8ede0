/**
 * A diff or patch as coloured lines: additions, removals, hunk and file headers (unified diff, Cody's
 * `apply_patch` envelope, and the `---`/`+++` previews of file writes). Every line is a text node.
 */
export type DiffLineKind = 'add' | 'remove' | 'hunk' | 'file' | 'context';

export function diffLineKind(line: string): DiffLineKind {
  if (line.startsWith('+++') || line.startsWith('---') || line.startsWith('*** ')) return 'file';
  if (line.startsWith('@@')) return 'hunk';
  if (line.startsWith('+')) return 'add';
  if (line.startsWith('-')) return 'remove';
  return 'context';
}

/** Whether text reads as a diff (so a card shows it coloured rather than as a plain block). */
export function looksLikeDiff(text: string): boolean {
  return /^(?:\+\+\+ |--- |\*\*\* Begin Patch|@@ )/m.test(text);
}

export function DiffView({ text }: { text: string }) {
  const lines = text.replace(/\n$/, '').split('\n');
  return (
    <pre class="diff">
      {lines.map((line, index) => (
        <div key={index} class={`diff-line diff-${diffLineKind(line)}`}>
          {line === '' ? ' ' : line}
        </div>
      ))}
    </pre>
  );
}
