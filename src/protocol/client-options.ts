import type { WireApi } from './items.js';

import { REASONING_LEVELS, type ReasoningLevel } from './reasoning-levels.js';

export { REASONING_LEVELS, type ReasoningLevel };

const KNOWN_REASONING_LEVELS: ReadonlySet<unknown> = new Set(REASONING_LEVELS);

export function isReasoningLevel(value: unknown): value is ReasoningLevel {
  return KNOWN_REASONING_LEVELS.has(value);
}

/**
 * A signed-in bearer token (ChatGPT via Codex, Claude via Claude Code) that core keeps fresh: the client
 * asks for it before every request and once more after a 401. Errors thrown carry one line for the person.
 */
export interface BearerCredential {
  /** The token for the next request; an expired one is refreshed first. */
  token(): Promise<string>;
  /** After the server refused `rejected` (401): a newer token to retry once with. Throws when there is none. */
  renew(rejected: string): Promise<string>;
  /** Headers that belong to the current token (ChatGPT's account id). */
  headers?(): Readonly<Record<string, string>>;
}

/** Which endpoint's request constraints apply beyond its wire API. */
export type EndpointKind = 'chatgpt-codex' | 'claude-oauth';

/** How to build a `ModelClient` for one API and model. */
export interface ClientOptions {
  api: WireApi;
  model: string;
  /** Endpoint override (config `baseUrl`); otherwise the API's environment variable, then its default. */
  baseUrl?: string;
  /** Where API keys and base URLs are read from (normally `process.env`). */
  env: Readonly<Record<string, string | undefined>>;
  /** Per-request timeout in ms. */
  timeoutMs?: number;
  /** A key core resolved (a preset's variable, `cody auth login`, Codex's stored key); wins over `env`. */
  apiKey?: string;
  /** A signed-in bearer token, used instead of any key. */
  bearer?: BearerCredential;
  /** Extra headers on every request (OAuth beta header, OpenRouter attribution). */
  headers?: Readonly<Record<string, string>>;
  /** Request constraints of a special endpoint (ChatGPT's Codex backend, Claude sign-in tokens). */
  endpointKind?: EndpointKind;
  /**
   * Whether the model reasons (o-series, GPT-5.x, Claude 4.x thinking, Gemini 2.5+), as core's catalogue
   * or config says. OpenAI answers 400 when encrypted reasoning is asked of a model without reasoning, so
   * the Responses client asks for it only when this is true.
   */
  reasoning?: boolean;
  /**
   * How hard the model should reason, for a model that reasons and takes the API's control (core's
   * catalogue says which); absent: nothing is sent and the API's default applies.
   */
  reasoningEffort?: ReasoningLevel;
}
