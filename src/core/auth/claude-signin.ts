/**
 * The Claude sign-in Claude Code keeps in `~/.claude/.credentials.json` (`claudeAiOauth`: accessToken,
 * refreshToken, expiresAt in ms, scopes, subscriptionType), used as a bearer token with Anthropic's OAuth
 * beta header and refreshed as Claude Code does: five minutes before `expiresAt`, by POSTing
 * `{grant_type: "refresh_token", refresh_token, client_id}` as JSON to Anthropic's token endpoint; the
 * answer's `expires_in` (seconds) sets the new `expiresAt`. Nothing claims to be Claude Code.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { isRecord } from '../../protocol/index.js';
import { CredentialFileError, type CredentialFix, readJsonObject } from './credential-file.js';
import { RefreshingBearer, type SignInFormat } from './refreshing-bearer.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Claude Code's public OAuth client id. */
export const CLAUDE_CLIENT_ID = '9d1c250a-e61b-44d9-88ed-5944d1962f5e';
/** Claude Code's token endpoint; `CODY_CLAUDE_TOKEN_URL` overrides it. */
export const CLAUDE_TOKEN_URL = 'https://console.anthropic.com/v1/oauth/token';
/** The beta header Anthropic requires with an OAuth bearer token. */
export const CLAUDE_OAUTH_BETA = 'oauth-2025-04-20';
/** Claude Code treats a token as expired this long before `expiresAt`. */
const EXPIRY_MARGIN_MS = 5 * 60 * 1000;

const FIX = 'run `claude` and sign in again (/login)';

export function claudeCredentialsFile(env: Env): string {
  return join(env.HOME ?? homedir(), '.claude', '.credentials.json');
}

export function claudeTokenUrl(env: Env): string {
  return env.CODY_CLAUDE_TOKEN_URL?.trim() || CLAUDE_TOKEN_URL;
}

export interface ClaudeCredential {
  file: string;
  bearer: RefreshingBearer;
  accessToken: string;
  expiresAt?: number;
  subscriptionType?: string;
}

function claudeFormat(file: string, tokenUrl: string): SignInFormat {
  return {
    label: 'Claude sign-in (from Claude Code)',
    file,
    tokenUrl,
    fix: FIX,
    read(document, now) {
      const oauth = document.claudeAiOauth;
      const access = isRecord(oauth) ? oauth.accessToken : undefined;
      const refresh = isRecord(oauth) ? oauth.refreshToken : undefined;
      if (!isRecord(oauth) || typeof access !== 'string' || access === '' || typeof refresh !== 'string') {
        throw new CredentialFileError(
          file,
          'holds no Claude sign-in (claudeAiOauth)',
          'Sign in with `claude`',
        );
      }
      const expiresAt = typeof oauth.expiresAt === 'number' ? oauth.expiresAt : undefined;
      return {
        accessToken: access,
        refreshToken: refresh,
        stale: expiresAt !== undefined && now + EXPIRY_MARGIN_MS >= expiresAt,
      };
    },
    refreshBody: (refreshToken) => ({
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: CLAUDE_CLIENT_ID,
    }),
    apply(document, response, now) {
      const oauth = isRecord(document.claudeAiOauth) ? { ...document.claudeAiOauth } : {};
      if (typeof response.access_token === 'string') oauth.accessToken = response.access_token;
      if (typeof response.refresh_token === 'string' && response.refresh_token !== '')
        oauth.refreshToken = response.refresh_token;
      if (typeof response.expires_in === 'number') oauth.expiresAt = now + response.expires_in * 1000;
      if (typeof response.scope === 'string') oauth.scopes = response.scope.split(' ').filter(Boolean);
      return { ...document, claudeAiOauth: oauth };
    },
    permanentReason(status, code) {
      if (code === 'invalid_grant') return 'its refresh token is no longer valid';
      return status === 400 || status === 401 ? `the token endpoint refused it (HTTP ${status})` : undefined;
    },
  };
}

/** Reads Claude Code's credentials; a missing, corrupt or empty file is a one-line error naming it. */
export async function readClaudeCredential(env: Env, now: number = Date.now()): Promise<ClaudeCredential> {
  const file = claudeCredentialsFile(env);
  const fix: CredentialFix = {
    text: 'Sign in with `claude`, or use an API key.',
    hint: 'use-api-key',
    hintSubject: 'anthropic',
  };
  const document = await readJsonObject(file, fix);
  if (!document) throw new CredentialFileError(file, 'does not exist', fix);
  const format = claudeFormat(file, claudeTokenUrl(env));
  const snapshot = format.read(document, now);
  const oauth = isRecord(document.claudeAiOauth) ? document.claudeAiOauth : {};
  return {
    file,
    bearer: new RefreshingBearer(format, snapshot),
    accessToken: snapshot.accessToken,
    ...(typeof oauth.expiresAt === 'number' ? { expiresAt: oauth.expiresAt } : {}),
    ...(typeof oauth.subscriptionType === 'string' ? { subscriptionType: oauth.subscriptionType } : {}),
  };
}
