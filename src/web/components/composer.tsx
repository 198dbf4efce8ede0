/**
 * The message box: Enter sends, Shift+Enter starts a new line, Esc stops the running turn, ↑ in an empty
 * box brings back the last message to edit. While a turn runs, the button is Stop — unless another process
 * (the terminal) runs it: it is stopped there, and the box says so.
 */
import { useState } from 'preact/hooks';

export interface ComposerProps {
  running: boolean;
  /** The running turn is another process's: nothing here can stop it. */
  elsewhere?: boolean;
  lastMessage: string | undefined;
  onSend(text: string): void;
  onStop(): void;
}

export function Composer({ running, elsewhere = false, lastMessage, onSend, onStop }: ComposerProps) {
  const [text, setText] = useState('');
  const send = () => {
    if (running || text.trim() === '') return;
    onSend(text);
    setText('');
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      send();
    } else if (event.key === 'Escape' && running && !elsewhere) {
      event.preventDefault();
      onStop();
    } else if (event.key === 'ArrowUp' && text === '' && lastMessage !== undefined) {
      event.preventDefault();
      // Setting a textarea's value puts the caret at its end.
      setText(lastMessage);
    }
  };
  return (
    <form
      class="composer"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <textarea
        aria-label="Message"
        placeholder="Message Cody (Enter sends, Shift+Enter new line, Esc stops)"
        rows={3}
        value={text}
        onInput={(event) => setText(event.currentTarget.value)}
        onKeyDown={onKeyDown}
      />
      {running && elsewhere ? (
        <span class="running-elsewhere" role="status">
          Running in the terminal
        </span>
      ) : running ? (
        <button type="button" class="stop" onClick={onStop}>
          Stop
        </button>
      ) : (
        <button type="submit" class="send" disabled={text.trim() === ''}>
          Send
        </button>
      )}
    </form>
  );
}
