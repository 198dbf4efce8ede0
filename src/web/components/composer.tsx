/**
 * The message box: Enter sends, Shift+Enter starts a new line, Esc stops the running turn, ↑ in an empty
 * box brings back the last message to edit. While a turn runs, the button is Stop — unless another process
 * (the terminal) runs it: it is stopped there, and the box says so.
 */
import { useEffect, useState } from 'preact/hooks';

export interface ComposerProps {
  running: boolean;
  /** The running turn is another process's: nothing here can stop it. */
  elsewhere?: boolean;
  lastMessage: string | undefined;
  /** What the box holds at first (a message the server did not take, kept across a reload). */
  initialText?: string | undefined;
  /** Sends; false (or a promise of it): not sent, so the box gets the message back. */
  onSend(text: string): boolean | Promise<boolean> | void;
  onStop(): void;
}

export function Composer({
  running,
  elsewhere = false,
  lastMessage,
  initialText,
  onSend,
  onStop,
}: ComposerProps) {
  const [text, setText] = useState(initialText ?? '');
  // A message handed back later (a first message the server did not take) fills an empty box.
  useEffect(() => {
    if (initialText !== undefined) setText((now) => (now === '' ? initialText : now));
  }, [initialText]);
  const send = () => {
    if (running || text.trim() === '') return;
    const sent = onSend(text);
    setText('');
    // Not sent: the message comes back, unless something else was typed meanwhile.
    void Promise.resolve(sent).then((ok) => {
      if (ok === false) setText((now) => (now === '' ? text : now));
    });
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
