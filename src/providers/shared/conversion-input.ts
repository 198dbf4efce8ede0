/**
 * What every API's converter takes from the client and one request: the history, the tools, the model
 * and the optional per-request settings, each present only when set. One place, so a new request setting
 * reaches every API the same way.
 */
import type { ClientOptions, ModelRequest } from '../../protocol/index.js';

export type ConversionInput = Pick<ModelRequest, 'items' | 'tools' | 'toolChoice' | 'maxOutputTokens'> &
  Pick<ClientOptions, 'model' | 'reasoningEffort'>;

export function conversionInput(
  options: Pick<ClientOptions, 'model' | 'reasoningEffort'>,
  request: ModelRequest,
): ConversionInput {
  return {
    items: request.items,
    tools: request.tools,
    model: options.model,
    ...(options.reasoningEffort !== undefined ? { reasoningEffort: options.reasoningEffort } : {}),
    ...(request.toolChoice !== undefined ? { toolChoice: request.toolChoice } : {}),
    ...(request.maxOutputTokens !== undefined ? { maxOutputTokens: request.maxOutputTokens } : {}),
  };
}
