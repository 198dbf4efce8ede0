/**
 * "Fork from here" on a user message: a new conversation holding the history through it. A message still
 * in the live history is named by its user turn (the fork keeps user turns 1..N); one a compaction
 * summarised away by its transcript cursor (the fork holds the history as it stood after its turn).
 */
import type { ForkPoint } from '../types.js';

export interface ForkButtonProps {
  at: ForkPoint;
  onFork: (at: ForkPoint) => void;
  disabled?: boolean;
}

export function ForkButton({ at, onFork, disabled }: ForkButtonProps) {
  const byTurn = 'atUserTurn' in at;
  return (
    <button
      type="button"
      class="fork-button"
      {...(byTurn ? { 'data-user-turn': at.atUserTurn } : { 'data-entry': at.atEntry })}
      title={
        byTurn
          ? `A new conversation with user turns 1–${at.atUserTurn}`
          : 'A new conversation with the history as it stood after this message'
      }
      disabled={disabled}
      onClick={() => onFork(at)}
    >
      Fork from here
    </button>
  );
}
