/**
 * Markdown to Preact elements by construction: `marked`'s lexer (the parser the terminal renderer uses)
 * makes tokens, and each token becomes elements whose text is set as text. No HTML from a reply is ever
 * parsed by the browser: raw HTML in a reply is shown as the characters it is, links are kept only for
 * http(s) and mailto (anything else, `javascript:` included, is shown as its text), and open with
 * `rel="noopener noreferrer"`. Images are not fetched (the page loads nothing from another origin): they
 * show as links.
 */
import { Lexer, type Token, type Tokens } from 'marked';
import { Component, type ComponentChildren, type VNode } from 'preact';
import { useRef } from 'preact/hooks';
import { lexMarkdown, type LexedText } from './markdown-blocks.js';
import { CodeBlock } from './components/code-block.js';

const SAFE_LINK = /^(https?:|mailto:)/i;

/** The href a link may have, or undefined when it must not be a link at all. */
export function safeHref(href: string): string | undefined {
  const trimmed = href.trim();
  return SAFE_LINK.test(trimmed) ? trimmed : undefined;
}

const lexGfm = (text: string): Token[] => Lexer.lex(text, { gfm: true });

/**
 * A reply as Markdown. While it streams, each render lexes only the open end of the text (see
 * markdown-blocks.ts) and a finished block, being the same token, is not rendered again.
 */
export function Markdown({ text }: { text: string }) {
  const lexed = useRef<LexedText | undefined>(undefined);
  let tokens: readonly Token[];
  try {
    lexed.current = lexMarkdown(lexed.current, text, lexGfm);
    tokens = lexed.current.tokens;
  } catch {
    lexed.current = undefined;
    return <p class="md-plain">{text}</p>;
  }
  return (
    <div class="markdown">
      {tokens.map((token, index) => (token.type === 'space' ? null : <Block key={index} token={token} />))}
    </div>
  );
}

/** One top-level block, rendered again only when its token changed. */
class Block extends Component<{ token: Token }> {
  override shouldComponentUpdate(next: { token: Token }): boolean {
    return next.token !== this.props.token;
  }
  override render() {
    return block(this.props.token, 0);
  }
}

function blocks(tokens: readonly Token[]): VNode[] {
  return tokens.map((token, index) => block(token, index)).filter((node): node is VNode => node !== null);
}

function block(token: Token, key: number): VNode | null {
  switch (token.type) {
    case 'space':
    case 'def':
      return null;
    case 'paragraph':
      return <p key={key}>{inline((token as Tokens.Paragraph).tokens)}</p>;
    case 'heading': {
      const heading = token as Tokens.Heading;
      const Tag = `h${Math.min(6, Math.max(1, heading.depth))}` as 'h1';
      return <Tag key={key}>{inline(heading.tokens)}</Tag>;
    }
    case 'code': {
      const code = token as Tokens.Code;
      return <CodeBlock key={key} code={code.text} lang={code.lang ?? ''} />;
    }
    case 'blockquote':
      return <blockquote key={key}>{blocks((token as Tokens.Blockquote).tokens)}</blockquote>;
    case 'hr':
      return <hr key={key} />;
    case 'list':
      return list(token as Tokens.List, key);
    case 'table':
      return table(token as Tokens.Table, key);
    case 'html':
      // Raw HTML is text: shown, never parsed.
      return (
        <pre key={key} class="md-html">
          {(token as Tokens.HTML).text}
        </pre>
      );
    case 'text': {
      const text = token as Tokens.Text;
      return <p key={key}>{text.tokens ? inline(text.tokens) : text.text}</p>;
    }
    default:
      return 'raw' in token && typeof token.raw === 'string' ? <p key={key}>{token.raw}</p> : null;
  }
}

function list(token: Tokens.List, key: number): VNode {
  const items = token.items.map((item, index) => (
    <li key={index} class={item.task ? 'md-task' : undefined}>
      {item.task ? <input type="checkbox" checked={item.checked === true} disabled /> : null}
      {item.tokens.map((child, childIndex) =>
        child.type === 'text' && !item.loose ? (
          <span key={childIndex}>
            {(child as Tokens.Text).tokens
              ? inline((child as Tokens.Text).tokens ?? [])
              : (child as Tokens.Text).text}
          </span>
        ) : child.type === 'checkbox' ? null : (
          block(child, childIndex)
        ),
      )}
    </li>
  ));
  if (!token.ordered) return <ul key={key}>{items}</ul>;
  const start = typeof token.start === 'number' ? token.start : undefined;
  return (
    <ol key={key} start={start}>
      {items}
    </ol>
  );
}

function table(token: Tokens.Table, key: number): VNode {
  const align = (index: number) => token.align[index] ?? undefined;
  return (
    <div key={key} class="md-table">
      <table>
        <thead>
          <tr>
            {token.header.map((cell, index) => (
              <th key={index} class={align(index) ? `align-${align(index)}` : undefined}>
                {inline(cell.tokens)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {token.rows.map((row, rowIndex) => (
            <tr key={rowIndex}>
              {row.map((cell, index) => (
                <td key={index} class={align(index) ? `align-${align(index)}` : undefined}>
                  {inline(cell.tokens)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function inline(tokens: readonly Token[]): ComponentChildren[] {
  return tokens.map((token, key) => inlineToken(token, key));
}

function inlineToken(token: Token, key: number): ComponentChildren {
  switch (token.type) {
    case 'text':
    case 'escape': {
      const text = token as Tokens.Text;
      return text.tokens ? <span key={key}>{inline(text.tokens)}</span> : text.text;
    }
    case 'strong':
      return <strong key={key}>{inline((token as Tokens.Strong).tokens)}</strong>;
    case 'em':
      return <em key={key}>{inline((token as Tokens.Em).tokens)}</em>;
    case 'del':
      return <del key={key}>{inline((token as Tokens.Del).tokens)}</del>;
    case 'codespan':
      return <code key={key}>{(token as Tokens.Codespan).text}</code>;
    case 'br':
      return <br key={key} />;
    case 'link': {
      const link = token as Tokens.Link;
      const href = safeHref(link.href);
      if (href === undefined) return <span key={key}>{link.raw}</span>;
      return (
        <a key={key} href={href} target="_blank" rel="noopener noreferrer">
          {inline(link.tokens)}
        </a>
      );
    }
    case 'image': {
      const image = token as Tokens.Image;
      const href = safeHref(image.href);
      const label = `[image: ${image.text || image.href}]`;
      return href === undefined ? (
        <span key={key}>{label}</span>
      ) : (
        <a key={key} href={href} target="_blank" rel="noopener noreferrer">
          {label}
        </a>
      );
    }
    case 'html':
      return <span key={key}>{(token as Tokens.HTML).text}</span>;
    default:
      return 'raw' in token && typeof token.raw === 'string' ? token.raw : null;
  }
}
