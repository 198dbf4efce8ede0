/** A provider/API/model choice from a library caller, checked before it is used or written. */
import { isProvider, providerList, toWireApi } from '../config/index.js';
import type { SelectionChoice } from '../conversation/index.js';
import { UsageError } from '../errors.js';
import { MODEL_ID } from './provider-choice.js';

/**
 * Throws a 'usage' `CodyError` for an unknown provider, an API the provider does not speak, or an empty
 * model, so a typo fails at once with one line instead of later inside a turn.
 */
export function checkSelection(selection: SelectionChoice): void {
  const provider: unknown = selection.provider;
  if (!isProvider(provider)) {
    throw new UsageError(
      `Unknown provider '${String(provider)}'. Choose one of: ${providerList().join(', ')}.`,
    );
  }
  const api: unknown = selection.api;
  if (api !== undefined) {
    if (typeof api !== 'string') throw new UsageError('The API must be a string (e.g. chat, responses).');
    toWireApi(selection.provider, api);
  }
  const model: unknown = selection.model;
  if (model !== undefined && (typeof model !== 'string' || model.trim() === '')) {
    throw new UsageError('The model must be a non-empty string.');
  }
  if (typeof model === 'string' && !MODEL_ID.test(model)) {
    throw new UsageError(
      `${JSON.stringify(model)} is not a valid model id (letters, digits and . _ : / @ + - only).`,
    );
  }
}
