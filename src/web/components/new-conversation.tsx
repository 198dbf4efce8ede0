/**
 * A new conversation: provider, API and model chosen from what the server offers (`GET /providers`;
 * the configured defaults when it does not say), and the first message. The conversation is made when
 * that message is sent.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, type Selection } from '../api.js';
import type { ProviderInfo } from '../types.js';
import { Composer } from './composer.js';

export interface NewConversationProps {
  onStart(selection: Selection, firstMessage: string): void;
}

export function NewConversation({ onStart }: NewConversationProps) {
  const [providers, setProviders] = useState<ProviderInfo[] | undefined>(undefined);
  const [provider, setProvider] = useState('');
  const [wireApi, setWireApi] = useState('');
  const [model, setModel] = useState('');
  useEffect(() => {
    api.providers().then(setProviders, () => setProviders(undefined));
  }, []);
  const chosen = providers?.find((candidate) => candidate.name === provider);
  const pick = (name: string) => {
    const next = providers?.find((candidate) => candidate.name === name);
    setProvider(name);
    setWireApi(next?.apis[0] ?? '');
    setModel(next?.defaultModel ?? '');
  };
  const selection = (): Selection => ({
    ...(provider !== '' ? { provider } : {}),
    ...(provider !== '' && wireApi !== '' ? { api: wireApi } : {}),
    ...(provider !== '' && model.trim() !== '' ? { model: model.trim() } : {}),
  });
  return (
    <section class="conversation new" aria-label="New conversation">
      <header class="conversation-header">
        <h1>New conversation</h1>
      </header>
      <div class="choose-model">
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
      </div>
      <Composer
        running={false}
        lastMessage={undefined}
        onSend={(text) => onStart(selection(), text)}
        onStop={() => undefined}
      />
    </section>
  );
}
