/**
 * The page: signed out, the sign-in form; signed in, the conversation list (with Sign out above it)
 * beside the open conversation (or a new one). The open conversation is in the address (`?c=<id>`), so a
 * reload reopens it; the session's secret is in this tab's sessionStorage, so a reload stays signed in.
 */
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, ApiError, SIGNED_OUT_EVENT, type Selection } from './api.js';
import { ConversationList } from './components/conversation-list.js';
import { ConversationView } from './components/conversation-view.js';
import { NewConversation } from './components/new-conversation.js';
import { SignInForm } from './components/sign-in-form.js';
import { SignOutButton } from './components/sign-out-button.js';
import { findSessionSecret, shareSessionSecret } from './session-secret.js';
import { signInFromAddress } from './sign-in.js';
import type { SessionInfo } from './types.js';
import { useConversations } from './use-conversations.js';

type Auth =
  | { status: 'checking' }
  | { status: 'signed-out'; problem?: string; notice?: string }
  | { status: 'signed-in'; session: SessionInfo };

const SIGNED_OUT: Auth = { status: 'signed-out', notice: 'Signed out.' };

function openIdFromAddress(): string | undefined {
  return new URLSearchParams(location.search).get('c') ?? undefined;
}

/** Signed in by the link's code, else by this tab's secret (or one another tab hands over), else not. */
async function startingAuth(): Promise<Auth> {
  let problem: string | undefined;
  try {
    const session = await signInFromAddress();
    if (session) return { status: 'signed-in', session };
  } catch (error) {
    problem = error instanceof Error ? error.message : String(error);
  }
  try {
    if ((await findSessionSecret()) !== undefined)
      return { status: 'signed-in', session: await api.session() };
  } catch (error) {
    if (!(error instanceof ApiError && (error.status === 401 || error.status === 403)))
      problem ??= String(error);
  }
  return { status: 'signed-out', ...(problem !== undefined ? { problem } : {}) };
}

export function App() {
  const [auth, setAuth] = useState<Auth>({ status: 'checking' });
  const signedOut = useCallback(() => setAuth(SIGNED_OUT), []);
  useEffect(() => {
    const onSignedOut = () =>
      setAuth({
        status: 'signed-out',
        problem: 'The server no longer knows this browser (it restarted?): sign in again.',
      });
    window.addEventListener(SIGNED_OUT_EVENT, onSignedOut);
    void startingAuth().then(setAuth);
    return () => window.removeEventListener(SIGNED_OUT_EVENT, onSignedOut);
  }, []);
  if (auth.status === 'checking') return <main class="splash">Cody</main>;
  if (auth.status === 'signed-out') {
    return (
      <SignInForm
        {...(auth.problem !== undefined ? { problem: auth.problem } : {})}
        {...(auth.notice !== undefined ? { notice: auth.notice } : {})}
        onSignedIn={(session) => setAuth({ status: 'signed-in', session })}
      />
    );
  }
  return <SignedIn session={auth.session} onSignedOut={signedOut} />;
}

function SignedIn({ session, onSignedOut }: { session: SessionInfo; onSignedOut(): void }) {
  const { conversations, refresh } = useConversations();
  // Other tabs of this origin may ask for the secret; a sign-out in one signs all of them out.
  useEffect(() => shareSessionSecret(onSignedOut), [onSignedOut]);
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
      >
        <SignOutButton onSignedOut={onSignedOut} />
      </ConversationList>
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
