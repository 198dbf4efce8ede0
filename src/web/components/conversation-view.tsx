/**
 * An open conversation: its header (title, provider and model, the extension's actions), the transcript
 * with the watched turn below it, the extension's panel (approvals, plan) and the composer.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { extension, type Extras } from '../extension.js';
import { extrasApi } from '../extras-api.js';
import { userText } from '../transcript-read.js';
import { useConversation } from '../use-conversation.js';
import type { Unsent } from '../unsent.js';
import { Composer } from './composer.js';
import { FailureNotice } from './failure-notice.js';
import { LiveTurnView } from './live-turn.js';
import type { ConversationSummary, ForkPoint, TranscriptEntry } from '../types.js';
import { Transcript } from './transcript.js';

export interface ConversationViewProps {
  id: string;
  /** Sent once the conversation's event stream is open (a conversation just made here). */
  firstMessage?: string;
  /** The server did not take the first message (no key…): the page deletes the empty conversation. */
  onFirstMessageFailed?(unsent: Unsent): void;
  onOpen(id: string | undefined): void;
  /** The list should be read again (a turn ended, a title changed). */
  onActivity(): void;
}

export function ConversationView({
  id,
  firstMessage,
  onFirstMessageFailed,
  onOpen,
  onActivity,
}: ConversationViewProps) {
  const open = useConversation(id, () => onOpen(undefined), firstMessage, onFirstMessageFailed);
  const { summary, entries, turn, extras, running, elsewhere, problem, unsent } = open;
  // A turn another process runs (the terminal) is stopped there: no Stop here, Esc does nothing.
  const stoppable = running && !elsewhere;
  const scroller = useRef<HTMLDivElement>(null);
  const stuckToBottom = useRef(true);
  const [forkProblem, setForkProblem] = useState<string | undefined>(undefined);

  useEffect(() => {
    const element = scroller.current;
    if (element && stuckToBottom.current) element.scrollTop = element.scrollHeight;
  });
  useEffect(() => {
    if (!running) onActivity();
  }, [running]);
  useStopOnEscape(stoppable, open.stop);

  return (
    <section class="conversation" aria-label="Conversation" data-state={running ? 'running' : 'idle'}>
      <ConversationHeader
        summary={summary}
        extras={extras}
        busy={running}
        onChanged={() => {
          void open.reload();
          onActivity();
        }}
        onOpen={(next) => {
          // A fork or a delete changes the list: read it again (GET /events may say so later).
          onActivity();
          onOpen(next);
        }}
      />
      <div
        class="transcript"
        ref={scroller}
        onScroll={(event) => {
          const element = event.currentTarget;
          stuckToBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < 40;
        }}
      >
        <Transcript
          entries={entries}
          extras={extras}
          {...(running
            ? {}
            : {
                onRetry: (text: string) => void open.send(text),
                onFork: (at: ForkPoint) => {
                  extrasApi.fork(id, at).then(
                    (fork) => {
                      onActivity();
                      onOpen(fork.id);
                    },
                    (error: unknown) =>
                      setForkProblem(error instanceof Error ? error.message : String(error)),
                  );
                },
              })}
        />
        {turn ? <LiveTurnView turn={turn} extras={extras} running={running} /> : null}
        <ErrorNotice text={forkProblem} />
        <ErrorNotice text={problem} />
        {unsent && <FailureNotice view={unsent.failure} alert />}
      </div>
      <extension.Panel extras={extras} conversationId={id} respond={open.respond} />
      <Composer
        running={running}
        elsewhere={elsewhere}
        lastMessage={turn?.userText ?? lastUserText(entries)}
        initialText={unsent?.text}
        onSend={(text) => open.send(text)}
        onStop={() => void open.stop()}
      />
    </section>
  );
}

/** The last message the person wrote (↑ in an empty box brings it back). */
function lastUserText(entries: readonly TranscriptEntry[]): string | undefined {
  return [...entries]
    .reverse()
    .map(userText)
    .find((text) => text !== undefined);
}

/** Esc stops the turn while `stoppable`. */
function useStopOnEscape(stoppable: boolean, stop: () => Promise<void>): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && stoppable) void stop();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [stoppable, stop]);
}

interface ConversationHeaderProps {
  summary: ConversationSummary | undefined;
  extras: Extras;
  busy: boolean;
  /** The extension changed the conversation (a title, a setting). */
  onChanged(): void;
  /** The extension opened another conversation (a fork), or none (a delete). */
  onOpen(id: string | undefined): void;
}

/** The title, provider and model, and the extension's actions. */
function ConversationHeader({ summary, extras, busy, onChanged, onOpen }: ConversationHeaderProps) {
  return (
    <header class="conversation-header">
      <div class="conversation-title">
        <h1>{summary?.title ?? summary?.preview ?? 'New conversation'}</h1>
        {summary ? (
          <span class="conversation-model">
            {summary.provider} · {summary.api} · {summary.model}
          </span>
        ) : null}
      </div>
      {summary ? (
        <extension.Header
          extras={extras}
          conversation={summary}
          busy={busy}
          onChanged={onChanged}
          onOpen={onOpen}
        />
      ) : null}
    </header>
  );
}

/** A problem shown in the transcript; nothing when there is none. */
function ErrorNotice({ text }: { text: string | undefined }) {
  return text !== undefined ? (
    <div class="notice error" role="alert">
      {text}
    </div>
  ) : null;
}
