/**
 * An approval card: the whole command or diff a tool call would run, why it asks, and the terminal's
 * choices — once, always (naming the scope the server states, offered only when it states one), deny
 * with an optional reason the model is told, or stop the turn. Answering disables the card until the
 * server's `approval-resolved` removes it. A question of a turn the terminal runs (`elsewhere`) is shown
 * without choices: it can be answered only there.
 */
import { useState } from 'preact/hooks';
import { callHeadline, parseArguments, prettyArguments, type FunctionCall } from '../tool-calls.js';
import { DiffView, looksLikeDiff } from './diff-view.js';

export type ApprovalDecision = 'approve' | 'approve-session' | 'deny' | 'abort';

/** The `approval-requested` event (or `GET …/state`'s pending approval's `request`). */
export interface ApprovalRequestView {
  id: string;
  call: FunctionCall;
  reason: string;
  preview?: string;
  alwaysScope?: { kind: 'command' | 'file' | 'call'; label: string };
  /** Asked by a turn another process (the terminal) runs: answered there, so the card offers nothing. */
  elsewhere?: boolean;
}

export interface ApprovalCardProps {
  request: ApprovalRequestView;
  /** Sends the answer (`POST /approvals/:id`); a rejection is shown on the card. */
  onAnswer: (decision: ApprovalDecision, reason?: string) => Promise<void>;
}

/** "always for: git status" / "always for edits to app.js", worded as the terminal's question. */
export function alwaysLabel(scope: { kind: string; label: string }): string {
  return scope.kind === 'command' ? `Always for: ${scope.label}` : `Always for ${scope.label}`;
}

export function ApprovalCard({ request, onAnswer }: ApprovalCardProps) {
  const [denying, setDenying] = useState(false);
  const [reason, setReason] = useState('');
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string | undefined>(undefined);

  const answer = (decision: ApprovalDecision, said?: string): void => {
    setSending(true);
    setFailure(undefined);
    onAnswer(decision, said).catch((error: unknown) => {
      setSending(false);
      setFailure(error instanceof Error ? error.message : String(error));
    });
  };

  return (
    <section class="approval-card" data-approval-id={request.id} aria-label="Approval request">
      <header class="approval-title">
        <span class="approval-mark">?</span> Allow{' '}
        <code>{callHeadline(request.call.name, request.call.arguments)}</code>
      </header>
      {request.reason !== '' && <div class="approval-reason">{request.reason}</div>}
      <ApprovalBody request={request} />
      {failure !== undefined && (
        <div class="approval-failure" role="alert">
          {failure}
        </div>
      )}
      {request.elsewhere === true ? (
        <div class="approval-elsewhere" role="status">
          Waiting for an answer in the terminal that runs this turn.
        </div>
      ) : denying ? (
        <DenyForm
          reason={reason}
          sending={sending}
          onReason={setReason}
          onDeny={(said) => answer('deny', said)}
          onBack={() => setDenying(false)}
        />
      ) : (
        <ApprovalChoices
          alwaysScope={request.alwaysScope}
          sending={sending}
          answer={answer}
          onNo={() => setDenying(true)}
        />
      )}
    </section>
  );
}

interface DenyFormProps {
  reason: string;
  sending: boolean;
  onReason: (reason: string) => void;
  /** Denies, with the reason typed (trimmed) unless it is empty. */
  onDeny: (reason: string | undefined) => void;
  onBack: () => void;
}

/** "No…": the reason the model is told (optional), then Deny, or Back to the choices. */
function DenyForm({ reason, sending, onReason, onDeny, onBack }: DenyFormProps) {
  return (
    <form
      class="approval-deny"
      onSubmit={(event) => {
        event.preventDefault();
        const said = reason.trim();
        onDeny(said === '' ? undefined : said);
      }}
    >
      <input
        class="approval-deny-reason"
        type="text"
        placeholder="Tell the model why (optional)"
        value={reason}
        disabled={sending}
        autoFocus
        onInput={(event) => onReason((event.currentTarget as HTMLInputElement).value)}
      />
      <button type="submit" class="approval-deny-send" disabled={sending}>
        Deny
      </button>
      <button type="button" disabled={sending} onClick={onBack}>
        Back
      </button>
    </form>
  );
}

interface ApprovalChoicesProps {
  alwaysScope: ApprovalRequestView['alwaysScope'];
  sending: boolean;
  answer: (decision: ApprovalDecision) => void;
  onNo: () => void;
}

/** The terminal's choices: once, always (when the server states a scope), no…, stop the turn. */
function ApprovalChoices({ alwaysScope, sending, answer, onNo }: ApprovalChoicesProps) {
  return (
    <div class="approval-choices">
      <button type="button" class="approval-once" disabled={sending} onClick={() => answer('approve')}>
        Yes, once
      </button>
      {alwaysScope !== undefined && (
        <button
          type="button"
          class="approval-always"
          disabled={sending}
          onClick={() => answer('approve-session')}
        >
          {alwaysLabel(alwaysScope)}
        </button>
      )}
      <button type="button" class="approval-no" disabled={sending} onClick={onNo}>
        No…
      </button>
      <button type="button" class="approval-stop" disabled={sending} onClick={() => answer('abort')}>
        Stop the turn
      </button>
    </div>
  );
}

/** The whole of what would run: the command, the diff or patch, or the arguments. */
function ApprovalBody({ request }: { request: ApprovalRequestView }) {
  const args = parseArguments(request.call.arguments);
  const command = args?.command;
  if (request.call.name === 'shell' && (typeof command === 'string' || Array.isArray(command))) {
    const text = typeof command === 'string' ? command : command.map(String).join(' ');
    return <pre class="approval-command">{text}</pre>;
  }
  if (request.preview !== undefined && request.preview !== '') {
    return looksLikeDiff(request.preview) ? (
      <DiffView text={request.preview} />
    ) : (
      <pre class="approval-preview">{request.preview}</pre>
    );
  }
  return <pre class="approval-arguments">{prettyArguments(request.call.arguments)}</pre>;
}
