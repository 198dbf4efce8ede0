/** Conversation ids: UUIDv7, time-sortable like Codex's, validated before they touch a path. */
import { InvalidConversationIdError } from './errors.js';

/** A new UUIDv7 (RFC 9562): 48-bit Unix ms timestamp, version 7, variant 10, 74 random bits. */
export function newConversationId(now: number = Date.now()): string {
  // The global Web Crypto: importing node:crypto would cost every command (even `list`) a few ms.
  const bytes = Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(16)));
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x70;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const ID_OR_PREFIX = /^[0-9a-f-]{1,36}$/i;

/** Only hex digits and `-`, 1–36 characters: no separators, no `..`, nothing that escapes a directory. */
export function isValidConversationIdOrPrefix(text: string): boolean {
  return ID_OR_PREFIX.test(text);
}

export function assertValidConversationIdOrPrefix(text: string): string {
  if (!isValidConversationIdOrPrefix(text)) throw new InvalidConversationIdError(text);
  return text.toLowerCase();
}
