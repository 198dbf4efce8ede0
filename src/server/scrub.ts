/**
 * Last line of defence for "keys never appear in any response": every JSON answer and SSE frame has the
 * values of the environment's key-like variables (and the API token) replaced before it is written.
 */

/** Variables whose values are secrets. */
const SECRET_NAME = /(KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL)/i;
/** Shorter values are too likely to occur by chance (and too weak to be real keys). */
const MIN_SECRET_LENGTH = 8;

export type Scrub = (text: string) => string;

export function createScrub(env: Readonly<Record<string, string | undefined>>, extra: string[] = []): Scrub {
  const secrets = [
    ...Object.entries(env)
      .filter(([name, value]) => SECRET_NAME.test(name) && value !== undefined)
      .map(([, value]) => value ?? ''),
    ...extra,
  ]
    .map((value) => value.trim())
    .filter((value) => value.length >= MIN_SECRET_LENGTH && JSON.stringify(value) === `"${value}"`);
  if (secrets.length === 0) return (text) => text;
  const unique = [...new Set(secrets)].sort((a, b) => b.length - a.length);
  return (text) => {
    let result = text;
    for (const secret of unique)
      if (result.includes(secret)) result = result.split(secret).join('[redacted]');
    return result;
  };
}
