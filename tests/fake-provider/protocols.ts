import { anthropicMessagesProtocol } from './anthropic-messages.js';
import { bedrockConverseProtocol } from './bedrock-converse.js';
import { geminiProtocol } from './gemini.js';
import { openaiChatProtocol } from './openai-chat.js';
import { openaiResponsesProtocol } from './openai-responses.js';
import type { ProtocolModule } from './types.js';

/** Every wire protocol the fake server speaks. Each module is self-contained. */
export const protocolModules: ProtocolModule[] = [
  openaiChatProtocol,
  openaiResponsesProtocol,
  anthropicMessagesProtocol,
  geminiProtocol,
  bedrockConverseProtocol,
];
