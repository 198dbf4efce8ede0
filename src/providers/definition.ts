/**
 * What one wire API is, in one object: each `src/providers/<api>/definition.ts` exports a
 * `definition: ProviderDefinition`, and `src/providers/registry.ts` lists them, one line per API.
 * Everything else (provider names and presets, key and base-URL variables, the config schema's enums,
 * the model catalogue and prices, credential checks, help and completions) derives from that list.
 *
 * A definition is plain data plus three small functions. It must not import its folder's client or any
 * SDK statically: `createClient` imports them when a client is built, so `cody list` loads no SDK.
 * The interface only grows (new optional fields); a change to an existing field is announced in the
 * commit that makes it.
 */
import type { ClientOptions, ModelClient } from '../protocol/index.js';

/** What a credential check learned: it works, the server refused it, or it could not tell. */
export type CredentialCheck =
  { state: 'works' } | { state: 'rejected'; status: number } | { state: 'not-checked'; reason: string };

/** What a credential check is given: where to ask and with what (exactly one of key or bearer token). */
export interface CredentialCheckRequest {
  /** The endpoint the provider is used with (config, then its variable, then its default), no trailing `/`. */
  baseUrl: string;
  apiKey?: string;
  /** A signed-in bearer token (Claude sign-in), sent instead of a key. */
  bearerToken?: string;
  /** The provider's or the sign-in's own headers (OpenRouter attribution, OAuth beta header). */
  headers?: Readonly<Record<string, string>>;
  timeoutMs?: number;
}

/** A subscription sign-in a provider takes with `--auth` (read from another program's login). */
export interface SignInSupport {
  /**
   * The `--auth` value and the `config.json` `auth.<provider>` value (`chatgpt`, `claude`). Core reads
   * the sign-in from the program that owns it by this mode (src/core/auth/).
   */
  mode: string;
  /** How messages name it (`ChatGPT (from Codex)`); absent: the mode. */
  label?: string;
  /** The wire APIs the sign-in can serve (ChatGPT's: `openai-responses` only); absent: all the provider's. */
  apis?: readonly string[];
  /** The model a new sign-in starts with; absent: the provider's `defaultModel`. */
  defaultModel?: string;
}

/**
 * A provider a person names (`--provider`, `config.json` `provider`, `baseUrls.<name>`): a vendor's own
 * API (`openai`, `anthropic`, `google`) or a preset for a server spoken to over another vendor's API
 * (`openrouter`, `ollama`, `lmstudio`, `vllm` on `openai-chat`). A provider served by several wire APIs
 * (`openai`: Chat Completions and Responses) is the same object in each of those definitions, and its
 * default API is the first of them in the registry.
 */
export interface ProviderPreset {
  /** The provider's name, unique in the registry: lower-case letters, digits and `-`. */
  name: string;
  /** The model used when this provider is chosen without `--model`. */
  defaultModel: string;
  /** Environment variables holding the key; the first one set (not blank) wins. */
  keyVariables: readonly string[];
  /**
   * Other environment variables holding this provider's secrets (AWS's secret key and session token):
   * never handed to tools and redacted like the key variables, but not read as the key.
   */
  secretVariables?: readonly string[];
  /** The environment variable overriding the endpoint (`baseUrls.<name>` in config wins over it). */
  baseUrlVariable: string;
  /**
   * The endpoint when neither config nor the variable sets one, spelled out so an SDK never reads
   * `process.env` itself. Absent: the client derives it (Bedrock: from the region).
   */
  defaultBaseUrl?: string;
  /** Whether a request without any key is refused (hosted APIs) rather than answered (local servers). */
  needsKey: boolean;
  /**
   * What to check when the provider refuses the credentials, after "check " in a turn's error line;
   * absent: "the key in <keyVariables>". For a provider whose credentials are not only a key (Bedrock).
   */
  credentialHint?: string;
  /** Headers sent with every request (OpenRouter's app attribution). */
  headers?: Readonly<Record<string, string>>;
  /**
   * A server reached over another vendor's API (an OpenAI-compatible router or local server): core
   * always passes its endpoint and key to the client, it serves model ids of any vendor, and a missing
   * key is an error before any request when `needsKey`.
   */
  preset?: boolean;
  /** Whether `cody auth login <name>` stores its key in `$CODY_HOME/auth.json` (and `auth status` lists it). */
  storesKey?: boolean;
  /** Bare model ids that obviously belong to this vendor (`gpt-…`), to catch `--model` on the wrong provider. */
  ownsModels?: RegExp;
  /** Model ids the vendor publishes, for warning about a typo (`gpt-4o-mni`) when a model is chosen. */
  knownModels?: readonly string[];
  /** One cheap read-only request telling whether a credential works (`cody auth status`); absent: none. */
  checkCredential?: (request: CredentialCheckRequest) => Promise<CredentialCheck>;
  /** The subscription sign-in this provider takes with `--auth`, if any. */
  signIn?: SignInSupport;
}

/** What the catalogue knows of a model family: its limits and what it can do. */
export interface ModelEntry {
  /** Matches the bare model id (any `models/` or router `vendor/` prefix removed); the first match wins. */
  pattern: RegExp;
  /** Tokens the model accepts in one request (input + output). */
  contextWindow: number;
  /** Most tokens the model may write in one response. */
  maxOutputTokens: number;
  /** The model reasons (OpenAI: accepts `reasoning.encrypted_content`). Default false. */
  reasoning?: true;
  /**
   * The model takes its API's reasoning control (Responses/Chat `reasoning_effort`, Anthropic `thinking`,
   * Gemini `thinkingConfig`). A model that reasons without it (DeepSeek's reasoner, o1-mini) has none.
   */
  effort?: true;
  /** The model is known to take no images (text-only). Default: it takes them. */
  noImages?: true;
}

/** A model family's published list price, in USD per million tokens. */
export interface PriceEntry {
  /** Matches the model id as configured; the first match wins. */
  pattern: RegExp;
  input: number;
  /** Price of input tokens served from the prompt cache; absent: the input price. */
  cachedInput?: number;
  output: number;
}

/** What an API takes in images, counted in base64 characters as the request carries them. */
export interface ImageLimits {
  /** Largest image (Anthropic refuses one over 5 MB). */
  perImage?: number;
  /** Largest total of a request's images (Gemini: 20 MB of inline data). */
  perRequest?: number;
  /** How messages name the API (`Anthropic`). */
  label: string;
}

/** One model a provider's list names, with the token limits the provider reports (Gemini, Anthropic). */
export interface ListedModel {
  id: string;
  /** Tokens the model accepts in one request, when the list says (Gemini's `inputTokenLimit`). */
  contextWindow?: number;
  /** Most tokens it may write, when the list says (Gemini's `outputTokenLimit`, Anthropic's `max_tokens`). */
  maxOutputTokens?: number;
}

/** What listing a server's models is given. */
export interface ModelListRequest {
  baseUrl: string;
  apiKey?: string;
  headers?: Readonly<Record<string, string>>;
  timeoutMs?: number;
}

/** An image whose input tokens are estimated: its pixel size when known, and OpenAI's detail hint. */
export interface ImageEstimateRequest {
  size?: { width: number; height: number };
  detail?: 'auto' | 'low' | 'high';
}

/** An exact tokenizer Cody ships (gpt-tokenizer's encodings). */
export type ExactEncoding = 'o200k' | 'cl100k';

/** One wire API. */
export interface ProviderDefinition {
  /**
   * The wire API id (`openai-chat`, `bedrock-converse`): recorded in rollouts (`origin.api`), shown as
   * every machine-readable `api`, and accepted by `--api`. Lower-case letters, digits and `-`.
   */
  api: string;
  /** The short name a person may type with `--api` instead of the id (`chat`, `responses`, `messages`). */
  apiName: string;
  /** A few words for help and docs (`OpenAI Chat Completions`). */
  title: string;
  /**
   * The providers this API serves. The first is the API's own: its key and base-URL variables and
   * default endpoint are what the client reads when core passes none.
   */
  providers: readonly ProviderPreset[];
  /** Builds the client, importing the folder's client module (and its SDK) only now. */
  createClient(options: ClientOptions): Promise<ModelClient>;
  /**
   * A model's family for deciding whether opaque reasoning data (encrypted reasoning, signatures) it
   * produced may be replayed to another model of this API: data goes back only to the same family.
   */
  modelFamily(model: string): string;
  /** Catalogue entries for the model families this API's providers serve (APIs may share entries). */
  models: readonly ModelEntry[];
  /** Price entries for those families (APIs may share entries); unknown models show no cost. */
  prices: readonly PriceEntry[];
  /** What the API takes in images; absent: nothing beyond Cody's own limit (20 MB an image). */
  imageLimits?: ImageLimits;
  /**
   * The models the server offers (`cody models`), sorted by id, with any limits the list reports; absent:
   * the API has no list Cody reads. (Changed with issue 33: it returned bare ids before.)
   */
  listModels?: (request: ModelListRequest) => Promise<ListedModel[]>;
  /**
   * Input tokens an image costs by the API's documented rule; undefined when it cannot tell (unknown
   * size). Absent: core takes the largest estimate of the registered APIs.
   */
  imageTokens?: (image: ImageEstimateRequest) => number | undefined;
  /** The exact encoding that counts a model's tokens, when Cody has it; absent or undefined: estimated. */
  exactEncoding?: (model: string) => ExactEncoding | undefined;
}
