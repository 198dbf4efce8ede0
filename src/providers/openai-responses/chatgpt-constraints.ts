/**
 * ChatGPT's Codex backend (`https://chatgpt.com/backend-api/codex/responses`) accepts the Responses body
 * Codex sends (codex-rs/core/src/client.rs, `ResponsesApiRequest`): streamed, `store: false`, the system
 * prompt in `instructions`, no `max_output_tokens` (Codex never sends one and the backend refuses it).
 */
import type { ResponseCreateParamsStreaming } from 'openai/resources/responses/responses';

export function applyChatGptConstraints(body: ResponseCreateParamsStreaming): void {
  body.store = false;
  body.stream = true;
  body.instructions ??= '';
  delete body.max_output_tokens;
}
