import type { MessageItem } from '../../protocol/index.js';

/** The text of a message, its text parts joined; images contribute nothing. */
export function messageText(message: MessageItem): string {
  let text = '';
  for (const part of message.content) {
    if (part.type !== 'input_image') text += part.text;
  }
  return text;
}
