/** Sign out: ends the session on the server (its cookie and its secret stop working), in every tab. */
import { useState } from 'preact/hooks';
import { api } from '../api.js';

export function SignOutButton({ onSignedOut }: { onSignedOut(): void }) {
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      class="sign-out"
      disabled={busy}
      onClick={() => {
        setBusy(true);
        // Signed out here whatever the answer: a session the server no longer knows is ended too.
        api.signOut().then(onSignedOut, onSignedOut);
      }}
    >
      Sign out
    </button>
  );
}
