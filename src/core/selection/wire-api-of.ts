import { isProvider, toWireApi } from '../config/index.js';
import type { SessionStatus } from '../conversation/index.js';
import type { WireApi } from '../../protocol/index.js';
import { isWireApi } from '../../providers/lookup.js';

/** The wire API id (`openai-chat`, …) of a conversation's status, whose `api` is the name a person types. */
export function wireApiOf(status: Pick<SessionStatus, 'provider' | 'api'>): WireApi {
  if (isWireApi(status.api)) return status.api;
  if (!isProvider(status.provider)) throw new Error(`unknown provider ${status.provider}`);
  return toWireApi(status.provider, status.api);
}
