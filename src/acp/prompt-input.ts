/**
 * A `session/prompt`'s content blocks as a Cody message: text as written, a `resource_link` as a
 * reference the model can read with its tools (a file's path, else the URI), an embedded text `resource`
 * (the editor's selection or buffer) appended as a quoted context block, images (inline, or an embedded
 * image resource) attached. Audio is not advertised, and refused.
 */
import type { ContentBlock } from '@agentclientprotocol/sdk';
import { RequestError } from '@agentclientprotocol/sdk';
import { fileURLToPath } from 'node:url';
import type { ImageAttachment } from './core-types.js';

export interface PromptInput {
  text: string;
  images: ImageAttachment[];
}

/** Where a URI points: a file's path for `file:` URIs, else the URI itself. */
function referenceOf(uri: string): string {
  if (!uri.startsWith('file:')) return uri;
  try {
    return fileURLToPath(uri);
  } catch {
    return uri;
  }
}

export function promptInput(blocks: readonly ContentBlock[]): PromptInput {
  let text = '';
  const context: string[] = [];
  const images: ImageAttachment[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case 'text':
        text += block.text;
        break;
      case 'resource_link':
        text += `${text === '' || /\s$/.test(text) ? '' : ' '}@${referenceOf(block.uri)}`;
        break;
      case 'image':
        images.push({ data: block.data, ...(block.uri ? { name: block.uri } : {}) });
        break;
      case 'resource': {
        const resource = block.resource;
        if ('text' in resource) {
          context.push(`<context ref="${referenceOf(resource.uri)}">\n${resource.text}\n</context>`);
        } else if (resource.mimeType?.startsWith('image/')) {
          images.push({ data: resource.blob, name: resource.uri });
        } else {
          context.push(`<context ref="${referenceOf(resource.uri)}">(binary content not included)</context>`);
        }
        break;
      }
      default:
        throw RequestError.invalidParams(undefined, `content of type '${block.type}' is not supported`);
    }
  }
  const message = [text, ...context].filter((part) => part !== '').join('\n\n');
  if (message === '' && images.length === 0)
    throw RequestError.invalidParams(undefined, 'the prompt is empty');
  return { text: message, images };
}
