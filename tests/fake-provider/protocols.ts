import type { ProtocolModule } from './types.js';
import { openaiChatProtocol } from './openai-chat.js';

/** Every wire protocol the fake server speaks. Each module is self-contained. */
export const protocolModules: ProtocolModule[] = [openaiChatProtocol];
