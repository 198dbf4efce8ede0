/**
 * What an item costs in tokens when it is sent, given some way of counting text. The text counter is
 * either a real tokenizer (OpenAI models) or the calibrated heuristic; the framing costs are shared.
 */
import type { ContentPart, ResponseItem, WireApi } from '../../protocol/index.js';
import { imageTokens, OPENAI_LOW_DETAIL_TOKENS, UNKNOWN_IMAGE_TOKENS } from '../images/index.js';

/** Counts the tokens of text and of whole canonical items. */
export interface TokenEstimator {
  /** Which counter is behind the figures: an exact OpenAI encoding or the heuristic. */
  readonly kind: 'o200k' | 'cl100k' | 'heuristic';
  /** Tokens of `text` alone. */
  countText(text: string): number;
  /** Tokens `item` adds to a request: its text plus framing; 0 for items never sent. */
  countItem(item: ResponseItem): number;
  /** The API whose rule prices images (see image-tokens.ts); absent: the largest of them. */
  readonly imageApi?: WireApi;
}

/**
 * Framing every sent item costs (role or item-type marker, start and end separators). OpenAI documents
 * 3 tokens per chat message plus 3 to prime the reply; 4 per item covers both, and tool calls also pay
 * for their name, counted as text.
 */
export const ITEM_OVERHEAD_TOKENS = 4;

/**
 * An image whose size cannot be read (an https: URL): OpenAI's price for a typical screenshot scaled
 * to 768 px on its short side (4 tiles of 512 px: 85 + 4 × 170). Images of known size are priced by
 * each API's own rule (images/image-tokens.ts).
 */
export const IMAGE_TOKENS = UNKNOWN_IMAGE_TOKENS;

/** An image at `low` detail: OpenAI's flat 85 tokens. */
export const LOW_DETAIL_IMAGE_TOKENS = OPENAI_LOW_DETAIL_TOKENS;

/**
 * Bytes of envelope (nonce, tag, framing) in OpenAI's encrypted reasoning, which carries no reasoning
 * tokens. The same figure Codex uses when it sizes encrypted reasoning by its length.
 */
const ENCRYPTED_ENVELOPE_BYTES = 650;

/** Bytes of reasoning text per token, the usual ~4 for English text. */
const BYTES_PER_REASONING_TOKEN = 4;

/**
 * Hidden reasoning tokens an encrypted blob stands for: its base64 decodes to 3/4 of its length, less
 * the envelope, at about 4 bytes per token. The blob's own characters are never tokenized.
 */
export function encryptedReasoningTokens(encrypted: string): number {
  const decodedBytes = Math.floor((encrypted.length * 3) / 4);
  return Math.ceil(Math.max(0, decodedBytes - ENCRYPTED_ENVELOPE_BYTES) / BYTES_PER_REASONING_TOKEN);
}

function countParts(
  parts: readonly ContentPart[],
  countText: (text: string) => number,
  api: WireApi | undefined,
): number {
  let total = 0;
  for (const part of parts) {
    switch (part.type) {
      case 'input_text':
      case 'output_text':
        total += countText(part.text);
        break;
      case 'input_image':
        total += imageTokens(part, api);
        break;
      default: {
        const exhaustive: never = part;
        throw new Error(`unknown content part ${JSON.stringify(exhaustive)}`);
      }
    }
  }
  return total;
}

/**
 * Tokens `item` costs when sent, with `countText` counting its text: message content, a call's name
 * and arguments, a tool output, reasoning summary and text, encrypted reasoning by its length, plus
 * {@link ITEM_OVERHEAD_TOKENS}. Ghost snapshots and opaque items are never sent and cost 0.
 */
export function countItemTokens(
  item: ResponseItem,
  countText: (text: string) => number,
  api?: WireApi,
): number {
  switch (item.type) {
    case 'message':
      return ITEM_OVERHEAD_TOKENS + countParts(item.content, countText, api);
    case 'function_call':
      return ITEM_OVERHEAD_TOKENS + countText(item.name) + countText(item.arguments);
    case 'function_call_output':
      return (
        ITEM_OVERHEAD_TOKENS +
        (typeof item.output === 'string' ? countText(item.output) : countParts(item.output, countText, api))
      );
    case 'reasoning': {
      let total = ITEM_OVERHEAD_TOKENS;
      for (const part of item.summary) total += countText(part.text);
      for (const part of item.content ?? []) total += countText(part.text);
      if (item.encrypted_content) total += encryptedReasoningTokens(item.encrypted_content);
      return total;
    }
    case 'ghost_snapshot':
    case 'opaque':
      return 0;
    default: {
      const exhaustive: never = item;
      throw new Error(`unknown item ${JSON.stringify(exhaustive)}`);
    }
  }
}

/** Sum of {@link TokenEstimator.countItem} over `items`. */
export function countItemsTokens(items: readonly ResponseItem[], estimator: TokenEstimator): number {
  let total = 0;
  for (const item of items) total += estimator.countItem(item);
  return total;
}
