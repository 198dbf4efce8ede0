/**
 * The open conversation's header slot: the context meter (tokens, share of the window, cost of the
 * turns seen here) and the actions — switch provider/API/model, rename, export, delete.
 */
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import type { ExtrasState } from '../conversation-extras.js';
import { downloadText } from '../download.js';
import type { HeaderSlotProps } from '../extension.js';
import { extrasApi } from '../extras-api.js';
import type { ProviderInfo } from '../types.js';
import { ContextMeter } from './context-meter.js';
import { ConversationActions, type ProviderChoice, type SelectionView } from './conversation-actions.js';

/** `GET /providers`, read once per page. */
let providersOnce: Promise<ProviderInfo[] | undefined> | undefined;

function useProviders(): ProviderChoice[] {
  const [providers, setProviders] = useState<ProviderChoice[]>([]);
  useEffect(() => {
    let live = true;
    providersOnce ??= api.providers().catch(() => undefined);
    void providersOnce.then((list) => {
      if (live && list)
        setProviders(
          list.map((provider) => ({
            name: provider.name,
            apis: provider.apis,
            defaultModel: provider.defaultModel ?? provider.models[0] ?? '',
            models: provider.models,
          })),
        );
    });
    return () => {
      live = false;
    };
  }, []);
  return providers;
}

export function ConversationHeader({
  extras,
  conversation,
  busy,
  onChanged,
  onOpen,
}: HeaderSlotProps<ExtrasState>) {
  const providers = useProviders();
  const { id } = conversation;
  // The summary shows the selection of the last turn; a switch shows at once, from the server's answer.
  const [chosen, setChosen] = useState<SelectionView | undefined>(undefined);
  return (
    <div class="conversation-extras-header">
      {extras.context !== undefined ? (
        <ContextMeter
          contextTokens={extras.context.contextTokens}
          contextWindow={extras.context.contextWindow}
          {...(extras.context.autoCompactLimit !== undefined
            ? { autoCompactLimit: extras.context.autoCompactLimit }
            : {})}
          usage={extras.usage}
          {...(extras.cost?.cost !== undefined ? { cost: extras.cost.cost } : {})}
        />
      ) : null}
      <ConversationActions
        id={id}
        {...(conversation.title !== undefined ? { title: conversation.title } : {})}
        selection={
          chosen ?? { provider: conversation.provider, api: conversation.api, model: conversation.model }
        }
        providers={providers}
        busy={busy}
        onSelect={async (selection) => {
          const { status } = await extrasApi.setSelection(id, selection);
          setChosen({
            provider: String(status.provider ?? selection.provider),
            api: String(status.api ?? selection.api),
            model: String(status.model ?? selection.model),
          });
          onChanged();
        }}
        onRename={async (title) => {
          await extrasApi.rename(id, title);
          onChanged();
        }}
        onDelete={async () => {
          await extrasApi.remove(id);
          onOpen(undefined);
        }}
        onExport={async (format) => {
          const document = await extrasApi.export(id, format);
          downloadText(document.fileName, document.text);
        }}
      />
    </div>
  );
}
