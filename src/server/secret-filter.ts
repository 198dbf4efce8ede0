/**
 * The last guard on what `cody serve` sends: every secret Cody knows (the API token, the provider keys of
 * the environment, the keys stored by `cody auth login`, the sign-in tokens of the credential files) is
 * replaced by `[REDACTED]` in every JSON answer and every SSE frame. The engine already redacts its
 * events and rollouts, but only with what it knew then: a rollout written before a key was stored or a
 * sign-in made, or an event replayed from before, still holds it. The list is read again before each
 * request is handled, so a sign-in counts from the next request on.
 */
import {
  compileMatchers,
  REDACTED,
  redactDeep,
  redactText,
  replaceSecrets,
  type Matchers,
} from '../core/index.js';

export type SecretSource = () => Promise<readonly string[]>;

export class SecretFilter {
  private readonly matchers: Matchers;
  private readonly fixed: readonly string[];
  private readonly source: SecretSource | undefined;
  /** Each secret as it appears inside a JSON string (quotes, backslashes and controls escaped). */
  private inJson: string[] = [];
  private reading: Promise<void> | undefined;

  constructor(fixed: readonly string[], source?: SecretSource) {
    this.fixed = fixed;
    this.source = source;
    this.matchers = compileMatchers({ secrets: fixed });
    this.inJson = jsonForms(this.matchers.secrets);
  }

  /** Reads the list again (one read at a time: requests arriving meanwhile share it). */
  refresh(): Promise<void> {
    if (!this.source) return Promise.resolve();
    const source = this.source;
    this.reading ??= source()
      .then(
        (secrets) => {
          replaceSecrets(this.matchers, [...this.fixed, ...secrets]);
          this.inJson = jsonForms(this.matchers.secrets);
        },
        // Unreadable credential files add nothing; the fixed secrets and the last list read stay.
        () => undefined,
      )
      .finally(() => {
        this.reading = undefined;
      });
    return this.reading;
  }

  /** A JSON answer's body with every string value redacted (secrets and key shapes; never a key). */
  json<T>(body: T): T {
    return redactDeep(body, (text) => redactText(text, this.matchers));
  }

  /** An SSE frame's JSON text with every exact secret in it replaced (its structure is left alone). */
  frame(data: string): string {
    let result = data;
    for (const secret of this.inJson)
      if (result.includes(secret)) result = result.split(secret).join(REDACTED);
    return result;
  }
}

function jsonForms(secrets: readonly string[]): string[] {
  return [...new Set(secrets.map((secret) => JSON.stringify(secret).slice(1, -1)))];
}
