/**
 * A bearer token read from another program's credential file and refreshed the way that program does:
 * before a request when it has expired, and after a 401. Every refresh happens under the file's lock and
 * starts by re-reading the file (a guarded reload, as Codex does): when another process already wrote a
 * newer token, that token is adopted and no refresh request is made, so refresh tokens that rotate are
 * used exactly once and the file always holds the newest pair.
 */
import type { BearerCredential } from '../../protocol/index.js';
import { postTokenRequest, tokenErrorCode } from '../../providers/shared/token-request.js';
import { CodyError } from '../errors.js';
import type { JsonObject } from '../../protocol/index.js';
import { readJsonObject, withFileLock, writeJsonAtomically } from './credential-file.js';

/** What Cody needs from one state of the credential file. */
export interface TokenSnapshot {
  accessToken: string;
  refreshToken: string;
  /** Whether the access token has expired (or is about to), so it must be refreshed before use. */
  stale: boolean;
  /** Headers tied to this token (ChatGPT's account id). */
  headers?: Record<string, string>;
}

/** One sign-in file format: where it lives, how to read it, how to refresh it and how to write it back. */
export interface SignInFormat {
  /** For messages: `ChatGPT sign-in (from Codex)`. */
  label: string;
  file: string;
  tokenUrl: string;
  /** What to do when the sign-in cannot be used: ``run `codex login` again``. */
  fix: string;
  /** The snapshot in the file's JSON; throws `CredentialFileError` when the shape is wrong. */
  read(document: JsonObject, now: number): TokenSnapshot;
  /** The token endpoint's JSON body. */
  refreshBody(refreshToken: string): Record<string, string>;
  /** The document with the new tokens in place and every other field kept. */
  apply(document: JsonObject, response: Record<string, unknown>, now: number): JsonObject;
  /** A permanent refusal's reason from the endpoint's status and OAuth error code, else `undefined`. */
  permanentReason(status: number, code: string | undefined): string | undefined;
}

/** A refresh that failed: the message says which sign-in, why, and what to do. Never holds a token. */
export class SignInRefreshError extends CodyError {
  readonly permanent: boolean;
  constructor(message: string, permanent: boolean) {
    super(message, 'auth');
    this.name = 'SignInRefreshError';
    this.permanent = permanent;
  }
}

export class RefreshingBearer implements BearerCredential {
  private current: TokenSnapshot;
  private permanentFailure: SignInRefreshError | undefined;
  private inFlight: Promise<TokenSnapshot> | undefined;

  constructor(
    private readonly format: SignInFormat,
    initial: TokenSnapshot,
    private readonly now: () => number = Date.now,
  ) {
    this.current = initial;
  }

  async token(): Promise<string> {
    if (!this.current.stale) return this.current.accessToken;
    try {
      return (await this.refreshGuarded(this.current.accessToken)).accessToken;
    } catch (error) {
      // As Codex does: a failed proactive refresh still lets the request go out with the old token;
      // the 401 it earns leads to renew(), which reports the failure.
      if (error instanceof SignInRefreshError && !error.permanent) return this.current.accessToken;
      throw error;
    }
  }

  async renew(rejected: string): Promise<string> {
    return (await this.refreshGuarded(rejected)).accessToken;
  }

  headers(): Readonly<Record<string, string>> {
    return this.current.headers ?? {};
  }

  /** One refresh at a time in this process; other processes are kept out by the file lock. */
  private refreshGuarded(rejected: string): Promise<TokenSnapshot> {
    if (this.permanentFailure) return Promise.reject(this.permanentFailure);
    this.inFlight ??= withFileLock(this.format.file, () => this.refreshLocked(rejected)).finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async refreshLocked(rejected: string): Promise<TokenSnapshot> {
    const { format } = this;
    const document = await readJsonObject(format.file, `Sign in again (${format.fix}).`);
    if (!document) {
      throw new SignInRefreshError(`${format.file} no longer exists: ${format.fix}.`, true);
    }
    const onDisk = format.read(document, this.now());
    if (onDisk.accessToken !== rejected && !onDisk.stale) {
      // Another process (Codex, Claude Code or a second Cody) refreshed already: use its token.
      this.current = onDisk;
      return onDisk;
    }
    const response = await postTokenRequest(format.tokenUrl, format.refreshBody(onDisk.refreshToken));
    if (response.status === 0) {
      throw new SignInRefreshError(
        `Could not reach ${format.tokenUrl} to refresh the ${format.label}: ${response.networkError ?? 'network error'}.`,
        false,
      );
    }
    if (response.status < 200 || response.status >= 300 || !response.body) {
      const reason = format.permanentReason(response.status, tokenErrorCode(response.body));
      if (reason !== undefined) {
        this.permanentFailure = new SignInRefreshError(
          `The ${format.label} could not be refreshed: ${reason}. ${capitalise(format.fix)}.`,
          true,
        );
        throw this.permanentFailure;
      }
      throw new SignInRefreshError(
        `Refreshing the ${format.label} failed at ${format.tokenUrl} (HTTP ${response.status}); try again later.`,
        false,
      );
    }
    const now = this.now();
    const updated = format.apply(document, response.body, now);
    await writeJsonAtomically(format.file, updated);
    this.current = format.read(updated, now);
    return this.current;
  }
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
