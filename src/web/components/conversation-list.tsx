/**
 * The conversations, newest activity first, this workspace's before the others', each with its title,
 * model and workspace; a search box filters them by title, first message, model or workspace.
 */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { ConversationSummary } from '../types.js';
import { DRAWER_ID } from './drawer.js';

export interface ConversationListProps {
  conversations: ConversationSummary[] | undefined;
  workspace: string;
  selectedId: string | undefined;
  onSelect(id: string): void;
  onNew(): void;
  /** Closes the list where it is a drawer (a narrow screen). */
  onClose(): void;
  /** Shown above the list's own controls (the page's Sign out). */
  children?: ComponentChildren;
}

/** This workspace first, then newest activity first. */
export function orderConversations(
  list: readonly ConversationSummary[],
  workspace: string,
): ConversationSummary[] {
  return [...list].sort((a, b) => {
    const here = Number(b.cwd === workspace) - Number(a.cwd === workspace);
    return here !== 0 ? here : b.updatedAt.localeCompare(a.updatedAt);
  });
}

function matches(conversation: ConversationSummary, query: string): boolean {
  if (query === '') return true;
  const haystack = [
    conversation.title,
    conversation.preview,
    conversation.model,
    conversation.provider,
    conversation.cwd,
  ]
    .filter((part) => part !== undefined)
    .join(' ')
    .toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .every((word) => haystack.includes(word));
}

function when(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? ''
    : date.toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' });
}

function shortPath(path: string): string {
  const parts = path.split('/').filter((part) => part !== '');
  return parts.length <= 2 ? path : `…/${parts.slice(-2).join('/')}`;
}

export function ConversationList({
  conversations,
  workspace,
  selectedId,
  onSelect,
  onNew,
  onClose,
  children,
}: ConversationListProps) {
  const [query, setQuery] = useState('');
  const shown = orderConversations(conversations ?? [], workspace).filter((c) => matches(c, query.trim()));
  return (
    <nav class="conversation-list" id={DRAWER_ID} aria-label="Conversations">
      <div class="list-top">
        <div class="list-head">
          <button type="button" class="drawer-close" onClick={onClose}>
            Close
          </button>
          {children}
        </div>
        <button type="button" class="new-conversation" onClick={onNew}>
          New conversation
        </button>
        <input
          type="search"
          aria-label="Search conversations"
          placeholder="Search"
          value={query}
          onInput={(event) => setQuery(event.currentTarget.value)}
        />
      </div>
      <ul>
        {shown.map((conversation) => (
          <li key={conversation.id}>
            <button
              type="button"
              class={`conversation-item${conversation.id === selectedId ? ' selected' : ''}`}
              data-id={conversation.id}
              aria-current={conversation.id === selectedId ? 'page' : undefined}
              onClick={() => onSelect(conversation.id)}
            >
              <span class="item-title">
                {conversation.title ?? conversation.preview ?? '(no messages yet)'}
              </span>
              <span class="item-meta">
                {conversation.model} · {when(conversation.updatedAt)}
              </span>
              {conversation.cwd !== undefined ? (
                <span
                  class={`item-workspace${conversation.cwd === workspace ? ' here' : ''}`}
                  title={conversation.cwd}
                >
                  {shortPath(conversation.cwd)}
                </span>
              ) : null}
            </button>
          </li>
        ))}
      </ul>
      {conversations !== undefined && shown.length === 0 ? <p class="list-empty">No conversations.</p> : null}
    </nav>
  );
}
