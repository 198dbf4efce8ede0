/**
 * The ChatGPT sign-in Codex CLI keeps in `$CODEX_HOME/auth.json` (default `~/.codex/auth.json`), used and
 * refreshed exactly as Codex does (codex-rs/login/src/auth/manager.rs): the access token is stale when its
 * JWT `exp` has passed (or, without one, 8 days after `last_refresh`); a refresh POSTs
 * `{client_id, grant_type: "refresh_token", refresh_token}` as JSON to auth.openai.com and writes back
 * whichever of `id_token`, `access_token`, `refresh_token` came back, plus `last_refresh`.
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { isRecord, type JsonObject } from '../../protocol/index.js';
import { CredentialFileError, type CredentialFix, readJsonObject } from './credential-file.js';
import { chatgptAccountIdOf, jwtExpiryMs } from './jwt.js';
import { RefreshingBearer, type SignInFormat, type TokenSnapshot } from './refreshing-bearer.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Codex's OAuth client id (codex-rs/login/src/auth/manager.rs `CLIENT_ID`). */
export const CODEX_CLIENT_ID = 'app_EMoamEEZ73f0CkXaXp7hrann';
/** Codex's token endpoint; `CODY_OPENAI_TOKEN_URL` overrides it (tests, proxies). */
export const OPENAI_TOKEN_URL = 'https://auth.openai.com/oauth/token';
/** ChatGPT's Codex backend: requests go to `{base}/responses`. */
export const CHATGPT_CODEX_BASE_URL = 'https://chatgpt.com/backend-api/codex';
/** Without a JWT expiry, Codex refreshes 8 days after `last_refresh` (`TOKEN_REFRESH_INTERVAL`). */
const REFRESH_INTERVAL_MS = 8 * 24 * 60 * 60 * 1000;

const FIX = 'run `codex login` again';

export function codexAuthFile(env: Env): string {
  const home = env.CODEX_HOME?.trim();
  return home ? join(resolve(home), 'auth.json') : join(env.HOME ?? homedir(), '.codex', 'auth.json');
}

export function openaiTokenUrl(env: Env): string {
  return env.CODY_OPENAI_TOKEN_URL?.trim() || OPENAI_TOKEN_URL;
}

/** What Codex's auth.json offers: ChatGPT tokens (preferred) or a stored API key. */
export type CodexCredential =
  | { kind: 'chatgpt'; file: string; bearer: RefreshingBearer; accessToken: string; expiresAt?: number }
  | { kind: 'api-key'; file: string; apiKey: string };

function codexFormat(file: string, tokenUrl: string): SignInFormat {
  return {
    label: 'ChatGPT sign-in (from Codex)',
    file,
    tokenUrl,
    fix: FIX,
    read: (document, now) => readTokens(file, document, now),
    refreshBody: (refreshToken) => ({
      client_id: CODEX_CLIENT_ID,
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
    }),
    apply(document, response, now) {
      const tokens = isRecord(document.tokens) ? { ...document.tokens } : {};
      for (const field of ['id_token', 'access_token', 'refresh_token'] as const) {
        const value = response[field];
        if (typeof value === 'string' && value !== '') tokens[field] = value;
      }
      return { ...document, tokens, last_refresh: new Date(now).toISOString() };
    },
    permanentReason(status, code) {
      switch (code?.toLowerCase()) {
        case 'refresh_token_expired':
          return 'its refresh token has expired';
        case 'refresh_token_reused':
          return 'its refresh token was already used';
        case 'refresh_token_invalidated':
          return 'its refresh token was revoked';
        default:
          return status === 401 ? 'the token endpoint refused it (HTTP 401)' : undefined;
      }
    },
  };
}

function readTokens(file: string, document: JsonObject, now: number): TokenSnapshot {
  const tokens = document.tokens;
  const access = isRecord(tokens) ? tokens.access_token : undefined;
  const refresh = isRecord(tokens) ? tokens.refresh_token : undefined;
  if (!isRecord(tokens) || typeof access !== 'string' || access === '' || typeof refresh !== 'string') {
    throw new CredentialFileError(file, 'holds no ChatGPT tokens', `Sign in with \`codex login\``);
  }
  const idToken = typeof tokens.id_token === 'string' ? tokens.id_token : '';
  const accountId =
    (typeof tokens.account_id === 'string' && tokens.account_id !== '' ? tokens.account_id : undefined) ??
    chatgptAccountIdOf(idToken) ??
    chatgptAccountIdOf(access);
  const expiry = jwtExpiryMs(access);
  let stale: boolean;
  if (expiry !== undefined) stale = expiry <= now;
  else {
    const last = typeof document.last_refresh === 'string' ? Date.parse(document.last_refresh) : NaN;
    stale = Number.isFinite(last) && last < now - REFRESH_INTERVAL_MS;
  }
  return {
    accessToken: access,
    refreshToken: refresh,
    stale,
    headers: accountId ? { 'ChatGPT-Account-ID': accountId } : {},
  };
}

/** Reads Codex's auth.json; a missing, corrupt or empty file is a one-line error naming it. */
export async function readCodexCredential(env: Env, now: number = Date.now()): Promise<CodexCredential> {
  const file = codexAuthFile(env);
  const fix: CredentialFix = {
    text: 'Sign in with `codex login`, or use an API key.',
    hint: 'use-api-key',
    hintSubject: 'openai',
  };
  const document = await readJsonObject(file, fix);
  if (!document) throw new CredentialFileError(file, 'does not exist', fix);
  if (isRecord(document.tokens)) {
    const format = codexFormat(file, openaiTokenUrl(env));
    const snapshot = format.read(document, now);
    const expiresAt = jwtExpiryMs(snapshot.accessToken);
    return {
      kind: 'chatgpt',
      file,
      bearer: new RefreshingBearer(format, snapshot),
      accessToken: snapshot.accessToken,
      ...(expiresAt !== undefined ? { expiresAt } : {}),
    };
  }
  const key = document.OPENAI_API_KEY;
  if (typeof key === 'string' && key.trim() !== '') return { kind: 'api-key', file, apiKey: key.trim() };
  throw new CredentialFileError(file, 'holds neither ChatGPT tokens nor an API key', fix);
}
