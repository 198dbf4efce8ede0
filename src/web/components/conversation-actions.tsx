/**
 * What can be done to the open conversation: switch its provider, API or model (choices from
 * `GET /providers`; takes effect from the next turn), rename it, export it (md, json, html: what
 * `GET …/export` answers, saved as a download), and delete it (after a confirmation).
 */
import { useState } from 'preact/hooks';

export interface ProviderChoice {
  name: string;
  apis: string[];
  defaultModel: string;
  models: string[];
}

export interface SelectionView {
  provider: string;
  api: string;
  model: string;
}

export interface ConversationActionsProps {
  id: string;
  title?: string;
  selection: SelectionView;
  providers: ProviderChoice[];
  /** A turn runs: nothing may change until it ends (the server refuses with 409). */
  busy: boolean;
  onSelect: (selection: SelectionView) => Promise<void>;
  onRename: (title: string) => Promise<void>;
  onDelete: () => Promise<void>;
  /** Fetches the export in that format and hands it to the browser as a download. */
  onExport: (format: 'md' | 'json' | 'html') => Promise<void>;
}

export function ConversationActions(props: ConversationActionsProps) {
  const [failure, setFailure] = useState<string | undefined>(undefined);
  const [renaming, setRenaming] = useState(false);
  const run = (action: Promise<void>): void => {
    setFailure(undefined);
    action.catch((error: unknown) => setFailure(error instanceof Error ? error.message : String(error)));
  };
  return (
    <div class="conversation-actions">
      <SelectionPicker {...props} onChange={(selection) => run(props.onSelect(selection))} />
      {renaming ? (
        <form
          class="rename-form"
          onSubmit={(event) => {
            event.preventDefault();
            const input = (event.currentTarget as HTMLFormElement).elements.namedItem('title');
            const title = input instanceof HTMLInputElement ? input.value.trim() : '';
            if (title === '') return;
            setRenaming(false);
            run(props.onRename(title));
          }}
        >
          <input
            name="title"
            class="rename-input"
            type="text"
            // Uncontrolled: a re-render while the person types (an event arriving) must not put the
            // old title back into the field.
            defaultValue={props.title ?? ''}
            maxLength={200}
            autoFocus
          />
          <button type="submit">Save</button>
          <button type="button" onClick={() => setRenaming(false)}>
            Cancel
          </button>
        </form>
      ) : (
        <button type="button" class="action-rename" onClick={() => setRenaming(true)}>
          Rename
        </button>
      )}
      <span class="action-export">
        Export:
        {(['md', 'json', 'html'] as const).map((format) => (
          <button
            key={format}
            type="button"
            class={`export-${format}`}
            onClick={() => run(props.onExport(format))}
          >
            {format}
          </button>
        ))}
      </span>
      <button
        type="button"
        class="action-delete"
        disabled={props.busy}
        onClick={() => {
          if (window.confirm('Delete this conversation? Its rollout file is removed.')) run(props.onDelete());
        }}
      >
        Delete
      </button>
      {failure !== undefined && (
        <span class="action-failure" role="alert">
          {failure}
        </span>
      )}
    </div>
  );
}

/**
 * Provider and API pickers and the model (the known ones offered, any id accepted: the server checks it);
 * changing the provider takes its first API and default model.
 */
function SelectionPicker({
  selection,
  providers,
  busy,
  onChange,
}: ConversationActionsProps & { onChange: (selection: SelectionView) => void }) {
  const current = providers.find((provider) => provider.name === selection.provider);
  const models = withCurrent(current?.models ?? [], selection.model);
  return (
    <span class="selection-picker">
      <select
        class="select-provider"
        aria-label="Provider"
        value={selection.provider}
        disabled={busy}
        onChange={(event) => {
          const chosen = providers.find((provider) => provider.name === event.currentTarget.value);
          if (chosen === undefined) return;
          onChange({ provider: chosen.name, api: chosen.apis[0] ?? '', model: chosen.defaultModel });
        }}
      >
        {withCurrent(
          providers.map((provider) => provider.name),
          selection.provider,
        ).map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
      <select
        class="select-api"
        aria-label="API"
        value={selection.api}
        disabled={busy}
        onChange={(event) => onChange({ ...selection, api: event.currentTarget.value })}
      >
        {withCurrent(current?.apis ?? [], selection.api).map((api) => (
          <option key={api} value={api}>
            {api}
          </option>
        ))}
      </select>
      <input
        class="select-model"
        aria-label="Model"
        list={`models-${selection.provider}`}
        value={selection.model}
        size={Math.max(12, selection.model.length)}
        disabled={busy}
        onChange={(event) => {
          const model = event.currentTarget.value.trim();
          if (model !== '' && model !== selection.model) onChange({ ...selection, model });
        }}
      />
      <datalist id={`models-${selection.provider}`}>
        {models.map((model) => (
          <option key={model} value={model} />
        ))}
      </datalist>
    </span>
  );
}

function withCurrent(choices: string[], current: string): string[] {
  return choices.includes(current) || current === '' ? choices : [current, ...choices];
}
