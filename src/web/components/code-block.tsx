/** A fenced code block: its language, a copy button, and the code with keywords, strings and comments coloured. */
import { useState } from 'preact/hooks';
import { highlight } from '../highlight.js';

export function CodeBlock({ code, lang }: { code: string; lang: string }) {
  const [copied, setCopied] = useState(false);
  const copy = () => {
    void navigator.clipboard?.writeText(code).then(() => {
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    });
  };
  return (
    <div class="code-block">
      <div class="code-bar">
        <span class="code-lang">{lang}</span>
        <button type="button" class="copy" onClick={copy} aria-label="Copy code">
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <pre>
        <code>
          {highlight(code, lang).map((piece, index) =>
            piece.kind ? (
              <span key={index} class={`hl-${piece.kind}`}>
                {piece.text}
              </span>
            ) : (
              piece.text
            ),
          )}
        </code>
      </pre>
    </div>
  );
}
