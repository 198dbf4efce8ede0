/**
 * The conversation list, kept fresh: read on open, again on every signal of the server's global event
 * stream (`GET /events`: created, deleted, renamed, state), and every few seconds when the server has no
 * such stream.
 */
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, GLOBAL_EVENT_TYPES, listen } from './api.js';
import type { ConversationSummary } from './types.js';

const POLL_MS = 5_000;

export function useConversations(): { conversations: ConversationSummary[] | undefined; refresh(): void } {
  const [conversations, setConversations] = useState<ConversationSummary[] | undefined>(undefined);
  const refresh = useCallback(() => {
    api.conversations().then(setConversations, () => undefined);
  }, []);
  useEffect(() => {
    refresh();
    let timer: ReturnType<typeof setInterval> | undefined;
    let pending: ReturnType<typeof setTimeout> | undefined;
    const poll = () => {
      timer ??= setInterval(refresh, POLL_MS);
    };
    let opened = false;
    const close = listen(
      '/events',
      {
        onEvent: () => {
          // A burst of signals (a turn's states) is one read.
          pending ??= setTimeout(() => {
            pending = undefined;
            refresh();
          }, 100);
        },
        onOpen: () => {
          opened = true;
          if (timer !== undefined) clearInterval(timer);
          timer = undefined;
        },
        onError: () => {
          // No such stream (404 closes an EventSource for good), or it dropped: poll until it is back.
          if (!opened) close();
          poll();
        },
      },
      undefined,
      GLOBAL_EVENT_TYPES,
    );
    return () => {
      close();
      if (timer !== undefined) clearInterval(timer);
      if (pending !== undefined) clearTimeout(pending);
    };
  }, [refresh]);
  return { conversations, refresh };
}
