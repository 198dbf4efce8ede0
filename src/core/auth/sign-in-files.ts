/** Every file Cody knows to hold a credential: what the sandbox hides from commands. */
import { claudeCredentialsFile } from './claude-signin.js';
import { codexAuthFile } from './codex-signin.js';
import { keyStoreFile } from './key-store.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Cody's stored keys, Codex's ChatGPT sign-in, Claude Code's sign-in (whether they exist or not). */
export function signInFiles(codyHome: string, env: Env): string[] {
  return [keyStoreFile(codyHome), codexAuthFile(env), claudeCredentialsFile(env)];
}
