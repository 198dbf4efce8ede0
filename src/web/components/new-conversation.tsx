/**
 * A new conversation: provider, API and model chosen from what the server offers (`GET /providers`;
 * the configured defaults when it does not say), and the first message. The conversation is made when
 * that message is sent.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, type Selection } from '../api.js';
import type { ProviderInfo } from '../types.js';
import type { Unsent } from '../unsent.js';
import { Composer } from './composer.js';
import { FailureNotice } from './failure-notice.js';

export interface NewConversationProps {
  /** A first message the server did not take, and why: back in the box, the reason shown. */
  unsent?: Unsent;
  /** False (once known) when the conversation could not be made. */
  onStart(selection: Selection, firstMessage: string): Promise<boolean>;
}

/** What the server offers (`GET /providers`); undefined until it answers, or when it does not. */
function useProviderList(): ProviderInfo[] | undefined {
  const [providers, setProviders] = useState<ProviderInfo[] | undefined>(undefined);
  useEffect(() => {
    api.providers().then(setProviders, () => setProviders(undefined));
  }, []);
  return providers;
}

/** The provider, API and model chosen (the configured default: none), as the form edits them. */
function useChoice(unsent: Unsent | undefined) {
  const [provider, setProvider] = useState('');
  const [wireApi, setWireApi] = useState('');
  const [model, setModel] = useState('');
  // A first message handed back: chosen as it was sent.
  useEffect(() => {
    if (unsent?.selection === undefined) return;
    setProvider(unsent.selection.provider ?? '');
    setWireApi(unsent.selection.api ?? '');
    setModel(unsent.selection.model ?? '');
  }, [unsent]);
  const selection = (): Selection => ({
    ...(provider !== '' ? { provider } : {}),
    ...(provider !== '' && wireApi !== '' ? { api: wireApi } : {}),
    ...(provider !== '' && model.trim() !== '' ? { model: model.trim() } : {}),
  });
  return { provider, setProvider, wireApi, setWireApi, model, setModel, selection };
}

export function NewConversation({ unsent, onStart }: NewConversationProps) {
  const providers = useProviderList();
  const { provider, setProvider, wireApi, setWireApi, model, setModel, selection } = useChoice(unsent);
  const chosen = providers?.find((candidate) => candidate.name === provider);
  const pick = (name: string) => {
    const next = providers?.find((candidate) => candidate.name === name);
    setProvider(name);
    setWireApi(next?.apis[0] ?? '');
    setModel(next?.defaultModel ?? '');
  };
  return (
    <section class="conversation new" aria-label="New conversation">
      <header class="conversation-header">
        <h1>New conversation</h1>
      </header>
      {/* Made again once the choices come: a value chosen before its option existed then shows. */}
      <div class="choose-model" key={providers === undefined ? 'loading' : 'ready'}>
        <label>
          Provider
          <select value={provider} onChange={(event) => pick(event.currentTarget.value)}>
            <option value="">configured default</option>
            {(providers ?? []).map((candidate) => (
              <option key={candidate.name} value={candidate.name}>
                {candidate.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          API
          <select
            value={wireApi}
            disabled={!chosen}
            onChange={(event) => setWireApi(event.currentTarget.value)}
          >
            {(chosen?.apis ?? []).map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Model
          <input
            list="model-choices"
            value={model}
            disabled={!chosen}
            placeholder={chosen?.defaultModel ?? ''}
            onInput={(event) => setModel(event.currentTarget.value)}
          />
          <datalist id="model-choices">
            {(chosen?.models ?? []).map((name) => (
              <option key={name} value={name} />
            ))}
          </datalist>
        </label>
      </div>
      <div class="transcript empty">
        <p>Ask anything about the code in this workspace.</p>
        {unsent && <FailureNotice view={unsent.failure} alert />}
      </div>
      <Composer
        running={false}
        lastMessage={undefined}
        initialText={unsent?.text}
        onSend={(text) => onStart(selection(), text)}
        onStop={() => undefined}
      />
    </section>
  );
}
