/**
 * One tool call: its headline (the command, the file), its arguments folded under it, and its output —
 * open while the command runs (live), folded to a one-line summary once it has finished. Text only:
 * model and tool text is rendered as text nodes, terminal control sequences dropped.
 */
import { useState } from 'preact/hooks';
import { callHeadline, plainOutput, prettyArguments, type ToolCallView } from '../tool-calls.js';

const STATUS_LABEL: Record<ToolCallView['status'], string> = {
  asked: 'asked',
  'waiting-approval': 'waiting for approval',
  running: 'running…',
  ok: 'done',
  error: 'failed',
  denied: 'denied',
  aborted: 'stopped',
  declined: 'declined',
};

export interface ToolCallProps {
  view: ToolCallView;
}

export function ToolCall({ view }: ToolCallProps) {
  const output = plainOutput(view.output).replace(/\n$/, '');
  const lines = output === '' ? 0 : output.split('\n').length;
  const headline = callHeadline(view.name, view.arguments);
  return (
    <div class="tool-call" data-call-id={view.callId} data-status={view.status}>
      <div class="tool-call-head">
        <span class="tool-call-name">{view.name}</span>
        <code class="tool-call-headline">{headline !== view.name ? headline : ''}</code>
        <span class={`tool-call-status status-${view.status}`}>
          {STATUS_LABEL[view.status]}
          {view.exitCode !== undefined && view.exitCode !== 0 ? ` (exit ${view.exitCode})` : ''}
          {view.durationMs !== undefined ? ` · ${formatDuration(view.durationMs)}` : ''}
        </span>
      </div>
      {view.reason !== undefined && <div class="tool-call-reason">{view.reason}</div>}
      <details class="tool-call-arguments">
        <summary>arguments</summary>
        <pre>{prettyArguments(view.arguments)}</pre>
      </details>
      {(lines > 0 || view.status === 'running') && (
        <ToolOutput text={output} lines={lines} running={view.status === 'running'} />
      )}
    </div>
  );
}

/** The output: open while it runs unless folded by hand; folded when done unless opened by hand. */
function ToolOutput({ text, lines, running }: { text: string; lines: number; running: boolean }) {
  const [chosen, setChosen] = useState<boolean | undefined>(undefined);
  const open = chosen ?? running;
  const first = text.split('\n', 1)[0] ?? '';
  return (
    <details
      class="tool-call-output"
      open={open}
      onToggle={(event) => {
        const now = (event.currentTarget as HTMLDetailsElement).open;
        if (now !== open) setChosen(now);
      }}
    >
      <summary>
        output · {lines} {lines === 1 ? 'line' : 'lines'}
        {!open && first !== '' ? <span class="tool-call-first-line"> — {first}</span> : null}
      </summary>
      <pre>{text}</pre>
    </details>
  );
}

export function formatDuration(ms: number): string {
  return ms < 1_000 ? `${Math.round(ms)} ms` : `${(ms / 1_000).toFixed(1)} s`;
}
