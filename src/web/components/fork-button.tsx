/** "Fork from here" on a user message: a new conversation keeping user turns 1..N (this one included). */

export interface ForkButtonProps {
  /** The message's user turn, counted from 1. */
  userTurn: number;
  onFork: (userTurn: number) => void;
  disabled?: boolean;
}

export function ForkButton({ userTurn, onFork, disabled }: ForkButtonProps) {
  return (
    <button
      type="button"
      class="fork-button"
      data-user-turn={userTurn}
      title={`A new conversation with user turns 1–${userTurn}`}
      disabled={disabled}
      onClick={() => onFork(userTurn)}
    >
      Fork from here
    </button>
  );
}
