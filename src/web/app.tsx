/**
 * The page: signed out, the sign-in form; signed in, the conversation list beside the open conversation
 * (or a new one). The open conversation is in the address (`?c=<id>`), so a reload reopens it.
 */
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, ApiError, SIGNED_OUT_EVENT, type Selection } from './api.js';
import { ConversationList } from './components/conversation-list.js';
import { ConversationView } from './components/conversation-view.js';
import { NewConversation } from './components/new-conversation.js';
import { SignInForm } from './components/sign-in-form.js';
import { signInFromAddress } from './sign-in.js';
import type { SessionInfo } from './types.js';
import { useConversations } from './use-conversations.js';

type Auth =
  | { status: 'checking' }
  | { status: 'signed-out'; problem?: string }
  | { status: 'signed-in'; session: SessionInfo };

function openIdFromAddress(): string | undefined {
  return new URLSearchParams(location.search).get('c') ?? undefined;
}

export function App() {
  const [auth, setAuth] = useState<Auth>({ status: 'checking' });
  useEffect(() => {
    const onSignedOut = () =>
      setAuth({
        status: 'signed-out',
        problem: 'The server no longer knows this browser (it restarted?): sign in again.',
      });
    window.addEventListener(SIGNED_OUT_EVENT, onSignedOut);
    void (async () => {
      let problem: string | undefined;
      try {
        const session = await signInFromAddress();
        if (session) return setAuth({ status: 'signed-in', session });
      } catch (error) {
        problem = error instanceof Error ? error.message : String(error);
      }
      try {
        setAuth({ status: 'signed-in', session: await api.session() });
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 401)) problem ??= String(error);
        setAuth({ status: 'signed-out', ...(problem !== undefined ? { problem } : {}) });
      }
    })();
    return () => window.removeEventListener(SIGNED_OUT_EVENT, onSignedOut);
  }, []);
  if (auth.status === 'checking') return <main class="splash">Cody</main>;
  if (auth.status === 'signed-out') {
    return (
      <SignInForm
        {...(auth.problem !== undefined ? { problem: auth.problem } : {})}
        onSignedIn={(session) => setAuth({ status: 'signed-in', session })}
      />
    );
  }
  return <SignedIn session={auth.session} />;
}

function SignedIn({ session }: { session: SessionInfo }) {
  const { conversations, refresh } = useConversations();
  const [openId, setOpenId] = useState<string | undefined>(openIdFromAddress);
  const [first, setFirst] = useState<{ id: string; text: string } | undefined>(undefined);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  useEffect(() => {
    const onPop = () => setOpenId(openIdFromAddress());
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  const open = useCallback((id: string | undefined) => {
    setOpenId(id);
    history.pushState(null, '', id === undefined ? location.pathname : `?c=${encodeURIComponent(id)}`);
  }, []);
  const start = async (selection: Selection, text: string) => {
    setProblem(undefined);
    try {
      const made = await api.create(selection);
      setFirst({ id: made.id, text });
      open(made.id);
      refresh();
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    }
  };
  return (
    <div class="layout">
      <ConversationList
        conversations={conversations}
        workspace={session.workspace}
        selectedId={openId}
        onSelect={open}
        onNew={() => open(undefined)}
      />
      <main class="main">
        {problem !== undefined ? (
          <div class="notice error" role="alert">
            {problem}
          </div>
        ) : null}
        {openId === undefined ? (
          <NewConversation onStart={(selection, text) => void start(selection, text)} />
        ) : (
          <ConversationView
            key={openId}
            id={openId}
            {...(first?.id === openId ? { firstMessage: first.text } : {})}
            onOpen={open}
            onActivity={refresh}
          />
        )}
      </main>
    </div>
  );
}
