/**
 * The page: signed out, the sign-in form; signed in, the conversation list (with Sign out above it)
 * beside the open conversation (or a new one). The open conversation is in the address (`?c=<id>`), so a
 * reload reopens it; the session's secret is in this tab's sessionStorage, so a reload stays signed in.
 */
import { useCallback, useEffect, useState } from 'preact/hooks';
import { DrawerToggle, useDrawer } from './components/drawer.js';
import { api, ApiError, SIGNED_OUT_EVENT, type Selection } from './api.js';
import { ConversationList } from './components/conversation-list.js';
import { ConversationView } from './components/conversation-view.js';
import { NewConversation } from './components/new-conversation.js';
import { SignInForm } from './components/sign-in-form.js';
import { SignOutButton } from './components/sign-out-button.js';
import { extrasApi } from './extras-api.js';
import { sendFailure } from './failure.js';
import { findSessionSecret, shareSessionSecret } from './session-secret.js';
import { signInFromAddress } from './sign-in.js';
import type { SessionInfo } from './types.js';
import { forgetUnsent, keepUnsent, NEW_CONVERSATION, readUnsent, type Unsent } from './unsent.js';
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

/** Opens a conversation (or the new one: undefined), in the address too (a new entry, or this one's). */
function useOpenConversation(): [string | undefined, (id: string | undefined, replace?: boolean) => void] {
  const [openId, setOpenId] = useState<string | undefined>(openIdFromAddress);
  useEffect(() => {
    const onPop = () => setOpenId(openIdFromAddress());
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  const open = useCallback((id: string | undefined, replace = false) => {
    setOpenId(id);
    const address = id === undefined ? location.pathname : `?c=${encodeURIComponent(id)}`;
    if (replace) history.replaceState(null, '', address);
    else history.pushState(null, '', address);
  }, []);
  return [openId, open];
}

/**
 * Starting a conversation: made, opened, its first message sent once its stream is open. A first message
 * the server does not take (no key…) leaves nothing behind: the conversation just made is deleted, the
 * page goes back to a new one with the message in the box and why (kept in this tab across a reload).
 */
function useFirstMessage(open: (id: string | undefined, replace?: boolean) => void, refresh: () => void) {
  const [first, setFirst] = useState<{ id: string; text: string; selection: Selection } | undefined>(
    undefined,
  );
  const [unsent, setUnsent] = useState<Unsent | undefined>(() => readUnsent(NEW_CONVERSATION));
  const failed = (kept: Unsent) => {
    keepUnsent(NEW_CONVERSATION, kept);
    setUnsent(kept);
    open(undefined, true);
    refresh();
  };
  const start = async (selection: Selection, text: string): Promise<boolean> => {
    forgetUnsent(NEW_CONVERSATION);
    setUnsent(undefined);
    try {
      const made = await api.create(selection);
      setFirst({ id: made.id, text, selection });
      open(made.id);
      refresh();
      return true;
    } catch (error) {
      failed({ text, failure: sendFailure(error), selection });
      return false;
    }
  };
  const notTaken = (id: string, kept: Unsent) => {
    forgetUnsent(id);
    setFirst(undefined);
    void extrasApi
      .remove(id)
      .catch(() => undefined)
      .then(() => failed({ ...kept, ...(first ? { selection: first.selection } : {}) }));
  };
  return { first, unsent, start, notTaken };
}

function SignedIn({ session, onSignedOut }: { session: SessionInfo; onSignedOut(): void }) {
  const { conversations, refresh } = useConversations();
  // Other tabs of this origin may ask for the secret; a sign-out in one signs all of them out.
  useEffect(() => shareSessionSecret(onSignedOut), [onSignedOut]);
  const [openId, open] = useOpenConversation();
  const { first, unsent, start, notTaken } = useFirstMessage(open, refresh);
  const drawer = useDrawer();
  return (
    <div class={`layout${drawer.open ? ' drawer-open' : ''}`}>
      <ConversationList
        conversations={conversations}
        workspace={session.workspace}
        selectedId={openId}
        onSelect={(id) => {
          drawer.close();
          open(id);
        }}
        onNew={() => {
          drawer.close();
          open(undefined);
        }}
        onClose={drawer.close}
      >
        <SignOutButton onSignedOut={onSignedOut} />
      </ConversationList>
      <button type="button" class="drawer-backdrop" tabIndex={-1} aria-hidden="true" onClick={drawer.close} />
      <main class="main">
        <DrawerToggle drawer={drawer} />
        {openId === undefined ? (
          <NewConversation {...(unsent !== undefined ? { unsent } : {})} onStart={start} />
        ) : (
          <ConversationView
            key={openId}
            id={openId}
            {...(first?.id === openId ? { firstMessage: first.text } : {})}
            onFirstMessageFailed={(kept) => notTaken(openId, kept)}
            onOpen={open}
            onActivity={refresh}
          />
        )}
      </main>
    </div>
  );
}
