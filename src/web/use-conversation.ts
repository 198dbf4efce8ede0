/**
 * An open conversation: its summary and transcript over REST, and its event stream live — the turn being
 * watched (turn-model.ts) and the extension's state (extension.ts). A reload mid-turn replays the turn
 * from its start (resume.ts); two tabs see the same events. At a turn's end the transcript is read again,
 * so what is shown is what was recorded.
 */
import { useCallback, useEffect, useRef, useState, type Dispatch, type StateUpdater } from 'preact/hooks';
import type { RefObject } from 'preact';
import { api, ApiError, conversationEvents } from './api.js';
import { extension, type Extras } from './extension.js';
import { sendFailure } from './failure.js';
import { forgetUnsent, keepUnsent, readUnsent, type Unsent } from './unsent.js';
import { forgetTurn, rememberTurn, resumePoint } from './resume.js';
import { beforeLastUserMessage, readTranscript } from './transcript-read.js';
import { applyTurnEvent, failedTurnKept, startTurn, type LiveTurn } from './turn-model.js';
import type { ConversationSummary, ServerEvent, TranscriptEntry } from './types.js';

export interface OpenConversation {
  summary: ConversationSummary | undefined;
  entries: TranscriptEntry[];
  turn: LiveTurn | undefined;
  extras: Extras;
  running: boolean;
  /** The running turn is another process's (`cody chat` in a terminal): watched here, stopped there. */
  elsewhere: boolean;
  problem: string | undefined;
  /** The last message the server did not take, and why (kept in this tab across a reload). */
  unsent: Unsent | undefined;
  /** Sends a message; false when the server did not take it (then `unsent` says why). */
  send(text: string): Promise<boolean>;
  stop(): Promise<void>;
  respond(approvalId: string, decision: string, reason?: string): Promise<void>;
  reload(): Promise<void>;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * `firstMessage`: sent once the event stream is open (a conversation just made from the page); when the
 * server does not take it, `onFirstFailed` is told (the page then deletes the empty conversation).
 */
export function useConversation(
  id: string,
  onDeleted: () => void,
  firstMessage?: string,
  onFirstFailed?: (unsent: Unsent) => void,
): OpenConversation {
  const [summary, setSummary] = useState<ConversationSummary | undefined>(undefined);
  const [entries, setEntries] = useState<TranscriptEntry[]>([]);
  const [turn, setTurn] = useState<LiveTurn | undefined>(undefined);
  const [extras, setExtras] = useState<Extras>(() => extension.fromState(undefined));
  const [running, setRunning] = useState(false);
  const [elsewhere, setElsewhere] = useState(false);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [unsent, setUnsent] = useState<Unsent | undefined>(() => readUnsent(id));
  const deleted = useRef(onDeleted);
  deleted.current = onDeleted;
  const firstFailed = useRef(onFirstFailed);
  firstFailed.current = onFirstFailed;
  const first = useRef(firstMessage);
  const view: ViewSetters = {
    setSummary,
    setEntries,
    setTurn,
    setExtras,
    setRunning,
    setElsewhere,
    setProblem,
    setUnsent,
  };

  /** Reads the summary and transcript again; the watched turn goes once it is recorded. */
  const refresh = useCallback(
    async (keepFailed: boolean) => {
      const [next, recorded] = await Promise.all([api.conversation(id), readTranscript(id)]);
      setSummary(next);
      setEntries(recorded);
      setTurn((current) => (keepFailed ? failedTurnKept(current) : undefined));
    },
    [id],
  );

  useEffect(() => {
    let closed = false;
    let close: (() => void) | undefined;
    const onEvent = turnEventHandler(id, view, refresh, () => deleted.current());
    void openConversation(id, view, first, {
      isClosed: () => closed,
      onEvent: (event, eventId) => {
        if (!closed) onEvent(event, eventId);
      },
      send: (text) =>
        void sendRef
          .current(text)
          .then((sent) => sent || firstFailed.current?.(readUnsent(id) ?? unknownFailure(text))),
      deleted: () => deleted.current(),
      opened: (stop) => {
        close = stop;
      },
    });
    return () => {
      closed = true;
      close?.();
    };
  }, [id, refresh]);

  const send = useCallback((text: string) => sendMessage(id, text, view), [id]);
  const sendRef = useRef(send);
  sendRef.current = send;
  const stop = useCallback(async () => {
    await api.abort(id).catch((error: unknown) => setProblem(message(error)));
  }, [id]);
  const respond = useCallback(async (approvalId: string, decision: string, reason?: string) => {
    await api.respond(approvalId, decision, reason);
  }, []);
  const reload = useCallback(() => refresh(false), [refresh]);

  const shown = { summary, entries, turn, extras, running, elsewhere, problem, unsent };
  return { ...shown, send, stop, respond, reload };
}

/** The state setters of `useConversation`, for the helpers below. */
interface ViewSetters {
  setSummary: Dispatch<StateUpdater<ConversationSummary | undefined>>;
  setEntries: Dispatch<StateUpdater<TranscriptEntry[]>>;
  setTurn: Dispatch<StateUpdater<LiveTurn | undefined>>;
  setExtras: Dispatch<StateUpdater<Extras>>;
  setRunning: Dispatch<StateUpdater<boolean>>;
  setElsewhere: Dispatch<StateUpdater<boolean>>;
  setProblem: Dispatch<StateUpdater<string | undefined>>;
  setUnsent: Dispatch<StateUpdater<Unsent | undefined>>;
}

/** Sends a message; false when the server did not take it (kept, with why, for the box and a reload). */
async function sendMessage(id: string, text: string, view: ViewSetters): Promise<boolean> {
  view.setProblem(undefined);
  view.setUnsent(undefined);
  forgetUnsent(id);
  view.setTurn(startTurn(text));
  view.setRunning(true);
  try {
    await api.send(id, text);
    return true;
  } catch (error) {
    // Not taken (no key, a turn already running…): the message goes back to the box, with why.
    const failed: Unsent = { text, failure: sendFailure(error) };
    keepUnsent(id, failed);
    view.setUnsent(failed);
    view.setTurn(undefined);
    view.setRunning(false);
    return false;
  }
}

function unknownFailure(text: string): Unsent {
  return { text, failure: sendFailure(new Error('The message was not sent.')) };
}

/** What an event of the conversation's stream changes: the watched turn, the extension, running, the transcript. */
function turnEventHandler(
  id: string,
  view: ViewSetters,
  refresh: (keepFailed: boolean) => Promise<void>,
  onDeleted: () => void,
): (event: ServerEvent, eventId: string | undefined) => void {
  const { setTurn, setExtras, setRunning, setElsewhere, setProblem } = view;
  return (event, eventId) => {
    setTurn((current) => applyTurnEvent(current, event));
    setExtras((current) => extension.apply(current, event));
    switch (event.type) {
      case 'turn-started':
        setRunning(true);
        setElsewhere(event.elsewhere === true);
        rememberTurn(id, event.turnId, eventId);
        break;
      case 'turn-complete':
      case 'turn-failed':
        setRunning(false);
        setElsewhere(false);
        forgetTurn(id);
        void refresh(event.type === 'turn-failed').catch((error: unknown) => setProblem(message(error)));
        break;
      case 'replay-gap':
        void refresh(false).catch((error: unknown) => setProblem(message(error)));
        break;
      case 'conversation-deleted':
        onDeleted();
        break;
      default:
        break;
    }
  };
}

interface OpenHooks {
  isClosed(): boolean;
  onEvent(event: ServerEvent, eventId: string | undefined): void;
  /** Sends the first message once the stream is open. */
  send(text: string): void;
  deleted(): void;
  /** Told at once the function that closes the stream, when it was opened. */
  opened(close: () => void): void;
}

/**
 * Shows the conversation as empty (or its first message being sent), reads the summary, transcript and state, then opens the event stream (from the running turn's start);
 * `hooks.opened` is told the function that closes it.
 */
async function openConversation(
  id: string,
  view: ViewSetters,
  first: RefObject<string | undefined>,
  hooks: OpenHooks,
): Promise<void> {
  // A first message to send shows at once, as running, until its turn's events come.
  view.setProblem(undefined);
  view.setTurn(first.current !== undefined ? startTurn(first.current) : undefined);
  view.setEntries([]);
  view.setRunning(first.current !== undefined);
  try {
    const [next, recorded, state] = await Promise.all([
      api.conversation(id),
      readTranscript(id),
      api.state(id),
    ]);
    if (hooks.isClosed()) return;
    // A running turn is shown from its start: after a reload from where this tab saw it begin, in a
    // tab that opens the conversation mid-turn from where the server says it began.
    const resumeAfter =
      state.turnId !== null ? (resumePoint(id, state.turnId) ?? state.replayAfter ?? undefined) : undefined;
    view.setSummary(next);
    // A turn replayed from its start shows its own message again.
    view.setEntries(resumeAfter !== undefined ? beforeLastUserMessage(recorded) : recorded);
    view.setExtras(extension.fromState(state));
    view.setRunning(state.turnId !== null || first.current !== undefined);
    view.setElsewhere(state.turnId !== null && state.elsewhere === true);
    if (state.turnId !== null && resumeAfter === undefined)
      view.setTurn({ turnId: state.turnId, blocks: [] });
    const onOpen = (): void => {
      const text = first.current;
      first.current = undefined;
      if (text !== undefined) hooks.send(text);
    };
    hooks.opened(conversationEvents(id, { onEvent: hooks.onEvent, onOpen }, resumeAfter));
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) hooks.deleted();
    else view.setProblem(message(error));
  }
}
