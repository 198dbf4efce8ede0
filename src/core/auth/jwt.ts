/** Reading (never verifying) the claims of a JWT: its expiry and ChatGPT's account id. */
import { isRecord, type JsonObject } from '../../protocol/index.js';

/** The payload of a JWT, or `undefined` when the text is not one. */
export function jwtClaims(token: string): JsonObject | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[1] === undefined) return undefined;
  try {
    const payload: unknown = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
    return isRecord(payload) ? payload : undefined;
  } catch {
    return undefined;
  }
}

/** The `exp` claim in milliseconds since the epoch, when the token is a JWT that has one. */
export function jwtExpiryMs(token: string): number | undefined {
  const exp = jwtClaims(token)?.exp;
  return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : undefined;
}

/** ChatGPT's account id inside an OpenAI id or access token (`https://api.openai.com/auth`). */
export function chatgptAccountIdOf(token: string): string | undefined {
  const auth = jwtClaims(token)?.['https://api.openai.com/auth'];
  const id = isRecord(auth) ? auth.chatgpt_account_id : undefined;
  return typeof id === 'string' && id !== '' ? id : undefined;
}
