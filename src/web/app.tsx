/** The page: signed out, the sign-in form; signed in, the conversation list beside the open conversation. */
import { useEffect, useState } from 'preact/hooks';
import { api } from './api.js';
import type { SessionInfo } from './types.js';

type Auth =
  | { status: 'checking' }
  | { status: 'signed-out'; problem?: string }
  | { status: 'signed-in'; session: SessionInfo };

export function App() {
  const [auth, setAuth] = useState<Auth>({ status: 'checking' });
  useEffect(() => {
    api
      .session()
      .then((session) => setAuth({ status: 'signed-in', session }))
      .catch(() => setAuth({ status: 'signed-out' }));
  }, []);
  if (auth.status === 'checking') return <main class="splash">Cody</main>;
  if (auth.status === 'signed-out')
    return <main class="splash">Sign in with the URL `cody serve` printed.</main>;
  return <main class="splash">Cody — {auth.session.workspace}</main>;
}
