/** Where a compaction replaced the history before it with a summary: a marker line, summary folded. */

export interface CompactionMarkerProps {
  tokensBefore?: number;
  tokensAfter?: number;
  /** The summary the model now sees instead of what came before (absent while one runs). */
  summary?: string;
  /** A compaction running now. */
  running?: boolean;
}

export function CompactionMarker({ tokensBefore, tokensAfter, summary, running }: CompactionMarkerProps) {
  const figures =
    tokensBefore !== undefined && tokensAfter !== undefined
      ? ` · ${formatTokens(tokensBefore)} → ${formatTokens(tokensAfter)} tokens`
      : '';
  const label = running === true ? 'Compacting the conversation…' : `Conversation compacted${figures}`;
  return (
    <div class="compaction-marker" role="separator" aria-label={label}>
      {summary !== undefined && summary !== '' ? (
        <details>
          <summary>{label}</summary>
          <pre class="compaction-summary">{summary}</pre>
        </details>
      ) : (
        <span>{label}</span>
      )}
    </div>
  );
}

/** 12345 → "12.3k", 999 → "999". */
export function formatTokens(count: number): string {
  if (count >= 1_000_000) return `${(count / 1_000_000).toFixed(1)}M`;
  if (count >= 1_000) return `${(count / 1_000).toFixed(1)}k`;
  return String(count);
}
