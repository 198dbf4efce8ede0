import type { WireApi } from './items.js';

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
}
