/** One message: the person's as written (plain text), the model's as Markdown. */
import { Markdown } from '../markdown.js';

export function Message({
  role,
  text,
  streaming,
}: {
  role: 'user' | 'assistant';
  text: string;
  streaming?: boolean;
}) {
  return (
    <article class={`message ${role}${streaming ? ' streaming' : ''}`} data-role={role}>
      {role === 'user' ? <div class="user-text">{text}</div> : <Markdown text={text} />}
    </article>
  );
}

export function Reasoning({ text }: { text: string }) {
  return (
    <details class="reasoning">
      <summary>Thinking</summary>
      <div class="reasoning-text">{text}</div>
    </details>
  );
}
