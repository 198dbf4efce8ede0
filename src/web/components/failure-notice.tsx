/**
 * Why a turn failed or a message was not sent: what happened, what to do (commands in `code`), and
 * Retry where sending the message again may work. `alert`: announced (a failure that just happened).
 */
import type { FailureView } from '../failure.js';

export interface FailureNoticeProps {
  view: FailureView;
  /** What the server said, when it says more than the view (the live error's own words). */
  said?: string;
  alert?: boolean;
  onRetry?: () => void;
}

/** `a `b` c` with the quoted parts as code. */
function withCode(text: string) {
  return text.split('`').map((part, index) => (index % 2 === 1 ? <code key={index}>{part}</code> : part));
}

export function FailureNotice({ view, said, alert = false, onRetry }: FailureNoticeProps) {
  return (
    <div
      class={`failure${view.retry ? '' : ' failure-final'}`}
      role={alert ? 'alert' : undefined}
      data-failure={view.title}
    >
      <div class="failure-title">{view.title}</div>
      {said !== undefined ? <div class="failure-said">{said}</div> : null}
      <div class="failure-detail">{withCode(view.detail)}</div>
      {onRetry ? (
        <button type="button" class="retry" onClick={onRetry}>
          Retry
        </button>
      ) : null}
    </div>
  );
}
