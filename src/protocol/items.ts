/**
 * Canonical conversation items: the one vocabulary shared by core, providers, the rollout file and tests.
 * Shaped like the Responses-API items Codex records (`ResponseItem`), so a Codex rollout reads as-is.
 * This module is logic-free and imports nothing else of Cody.
 */

/**
 * A wire API id (`openai-chat`, `anthropic-messages`, …) as recorded in rollouts and configs. Plain text
 * here: which APIs exist is the providers' registry's business (src/providers/registry.ts), and protocol
 * imports nothing of the providers; readers check an id read from disk with providers' `isWireApi`.
 */
export type WireApi = string;

/** Who produced opaque provider data (encrypted reasoning, thinking signatures, thought signatures). */
export interface ProviderOrigin {
  /** Wire API whose response carried the data. */
  api: WireApi;
  /** Model id as the provider reported it (or as requested when it reported none). */
  model: string;
  /**
   * Produced by another program or account (a Codex rollout imported with `cody import`): its opaque data
   * was encrypted for that account, which OpenAI refuses from any other (400 `invalid_encrypted_content`),
   * so it is kept but never replayed.
   */
  foreign?: true;
}

/** Text the user (or system/developer) wrote. */
export interface InputTextPart {
  type: 'input_text';
  text: string;
}

/** Text the model wrote. */
export interface OutputTextPart {
  type: 'output_text';
  text: string;
}

/** An image, as a `data:` URL (base64) or an `https:` URL. */
export interface InputImagePart {
  type: 'input_image';
  image_url: string;
  /** Resolution hint (OpenAI only); other APIs ignore it. */
  detail?: 'auto' | 'low' | 'high';
}

export type ContentPart = InputTextPart | OutputTextPart | InputImagePart;

export type MessageRole = 'user' | 'assistant' | 'system' | 'developer';

export interface MessageItem {
  type: 'message';
  role: MessageRole;
  content: ContentPart[];
  /** Provider item id (e.g. Responses `msg_…`), when one was reported. */
  id?: string;
  /** Producer of `provider_data`. */
  origin?: ProviderOrigin;
  /** Opaque per-provider fields, replayed only to the same origin (e.g. Gemini `thoughtSignature`). */
  provider_data?: Record<string, string>;
}

export interface FunctionCallItem {
  type: 'function_call';
  /** Tool name. */
  name: string;
  /** Arguments as a JSON-encoded object string, exactly as the model produced them. */
  arguments: string;
  /** Id pairing this call with its `function_call_output`. */
  call_id: string;
  /** Provider item id (e.g. Responses `fc_…`). */
  id?: string;
  origin?: ProviderOrigin;
  provider_data?: Record<string, string>;
}

export interface FunctionCallOutputItem {
  type: 'function_call_output';
  call_id: string;
  /** The tool's result: plain text, or content parts (text and images). */
  output: string | ContentPart[];
}

export interface ReasoningSummaryPart {
  type: 'summary_text';
  text: string;
}

export interface ReasoningTextPart {
  type: 'reasoning_text';
  text: string;
}

export interface ReasoningItem {
  type: 'reasoning';
  /** Provider item id (Responses `rs_…`); required by Responses to replay encrypted content. */
  id?: string;
  /** Visible summary of the reasoning (OpenAI summaries, Gemini thought summaries). */
  summary: ReasoningSummaryPart[];
  /** Raw reasoning text where the provider exposes it (Anthropic thinking). */
  content?: ReasoningTextPart[] | null;
  /** OpenAI `reasoning.encrypted_content`: opaque, replayable only to `origin`. */
  encrypted_content?: string | null;
  origin?: ProviderOrigin;
  /** Other opaque fields: Anthropic `signature` or `redacted_data`, Gemini `thoughtSignature`. */
  provider_data?: Record<string, string>;
}

/** An undo point (a git commit of the work tree). Never sent to a model; survives compaction. */
export interface GhostSnapshotItem {
  type: 'ghost_snapshot';
  ghost_commit: Record<string, unknown>;
}

/** An item of a type Cody does not know (read from disk). Kept and rewritten verbatim, never sent. */
export interface OpaqueItem {
  type: 'opaque';
  /** The item exactly as it was read. */
  raw: Record<string, unknown>;
}

export type ResponseItem =
  MessageItem | FunctionCallItem | FunctionCallOutputItem | ReasoningItem | GhostSnapshotItem | OpaqueItem;

export type ResponseItemType = ResponseItem['type'];
