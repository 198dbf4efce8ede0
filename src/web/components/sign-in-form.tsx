/** Signed out: how to sign in (the link `cody serve` prints), or paste the API token once. */
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import type { SessionInfo } from '../types.js';

export function SignInForm({
  problem,
  notice,
  onSignedIn,
}: {
  problem?: string;
  /** Not a problem: why the form is shown (signed out by the person). */
  notice?: string;
  onSignedIn(session: SessionInfo): void;
}) {
  const [token, setToken] = useState('');
  const [failure, setFailure] = useState<string | undefined>(problem);
  return (
    <main class="sign-in">
      <h1>Cody</h1>
      {notice !== undefined ? (
        <p class="notice" role="status">
          {notice}
        </p>
      ) : null}
      <p>
        Open the sign-in link <code>cody serve</code> (or <code>cody web</code>) printed. Each link works
        once.
      </p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          api
            .signInWithToken(token.trim())
            .then(onSignedIn, (error: unknown) =>
              setFailure(error instanceof Error ? error.message : String(error)),
            );
        }}
      >
        <label>
          Or paste the API token (<code>$CODY_HOME/serve-token</code>):
          <input
            type="password"
            autocomplete="off"
            value={token}
            onInput={(event) => setToken(event.currentTarget.value)}
          />
        </label>
        <button type="submit" disabled={token.trim() === ''}>
          Sign in
        </button>
      </form>
      {failure !== undefined ? (
        <p class="notice error" role="alert">
          {failure}
        </p>
      ) : null}
    </main>
  );
}
