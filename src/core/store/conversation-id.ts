/** Conversation ids: UUIDv7, time-sortable like Codex's, validated before they touch a path. */
import { InvalidConversationIdError } from '../errors.js';

/**
 * A new UUIDv7 (RFC 9562 §5.7): 48-bit big-endian Unix time in ms, version 7, 12 + 62 random bits,
 * variant `10`. Ids sort by creation time as plain strings, and a prefix is a rough creation time.
 */
export function newConversationId(now: number = Date.now()): string {
  // The global Web Crypto (the same CSPRNG as node:crypto's randomBytes): importing node:crypto would
  // cost every command, even `list`, a few ms of start-up.
  const bytes = Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(16)));
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x70;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const ID_OR_PREFIX = /^[0-9a-f-]{1,36}$/i;
const FULL_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Only hex digits and `-`, 1–36 characters: no separators, no `..`, nothing that escapes a directory. */
export function isValidConversationIdOrPrefix(text: string): boolean {
  return ID_OR_PREFIX.test(text);
}

/** A whole id as Cody writes it (lower-case UUID layout). */
export function isConversationId(text: string): boolean {
  return FULL_ID.test(text);
}

/** The id or prefix, lower-cased; InvalidConversationIdError if it could be anything else. */
export function assertValidConversationIdOrPrefix(text: string): string {
  if (!isValidConversationIdOrPrefix(text)) throw new InvalidConversationIdError(text);
  return text.toLowerCase();
}
