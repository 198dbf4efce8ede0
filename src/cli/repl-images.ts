/**
 * Images in a REPL line: an `@shot.png` mention, or an image file's path pasted (or dropped) into the
 * prompt — absolute, `~/…` or `file://…`, quoted or with escaped spaces as terminals paste them. Which
 * files are images is decided by their first bytes; core reads and checks them when the turn is sent.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sniffImageType } from '../core/index.js';

/** Whether `full` is a file whose first bytes are a PNG, JPEG, GIF or WebP signature. */
export function isImageFile(full: string): boolean {
  try {
    if (!statSync(full).isFile()) return false;
    const head = Buffer.alloc(16);
    const descriptor = openSync(full, 'r');
    try {
      readSync(descriptor, head, 0, head.length, 0);
    } finally {
      closeSync(descriptor);
    }
    return sniffImageType(head) !== undefined;
  } catch {
    return false;
  }
}

const IMAGE_NAME = /\.(png|jpe?g|gif|webp)$/i;

/** A pasted token as a path: quotes removed, `\ ` unescaped, `file://` and `~/` expanded. */
function pastedPath(token: string): string | undefined {
  let path = token;
  const quoted = /^(['"])(.*)\1$/s.exec(path);
  if (quoted) path = quoted[2] ?? '';
  else path = path.replace(/\\(.)/g, '$1');
  if (path.startsWith('file://')) {
    try {
      path = fileURLToPath(path);
    } catch {
      return undefined;
    }
  }
  if (path.startsWith('~/')) path = `${homedir()}${path.slice(1)}`;
  return path.startsWith('/') && IMAGE_NAME.test(path) ? path : undefined;
}

/**
 * Takes pasted image paths out of the line: each is attached (its absolute path returned) and removed
 * from the text, with a note for the person.
 */
export function attachPastedImages(
  text: string,
  cwd: string,
): { message: string; images: string[]; notes: string[] } {
  const images: string[] = [];
  const notes: string[] = [];
  const message = text.replace(/'[^']+'|"[^"]+"|(?:\\.|[^\s'"])+/g, (token) => {
    const path = pastedPath(token);
    if (path === undefined) return token;
    const full = resolve(cwd, path);
    if (!isImageFile(full)) return token;
    images.push(full);
    notes.push(`attached image ${path}`);
    return '';
  });
  return { message: images.length > 0 ? message.replace(/[ \t]{2,}/g, ' ').trim() : text, images, notes };
}
