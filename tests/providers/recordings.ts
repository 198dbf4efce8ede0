/**
 * Loads the real recorded API responses in tests/fixtures/provider-recordings (see tests/fixtures/README.md) so provider
 * tests can serve them byte for byte from the fake provider server.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { RawStep } from '../fake-provider/types.js';

/** The recordings directory, inside the repository. */
export const RECORDINGS_ROOT = resolve(import.meta.dirname, '../fixtures/provider-recordings');

/** A recorded HTTP response, ready to serve. */
export interface Recording {
  status: number;
  headers: Record<string, string>;
  /** The exact body text. */
  body: string;
}

/** How each API frames the `data:` payloads of a chunk-per-line file (README, "Turning a chunk-per-line file…"). */
export type SseFraming = 'openai-chat' | 'openai-responses' | 'anthropic-messages' | 'gemini';

interface MetaFile {
  response?: { status?: number; headers_subset?: Record<string, string> };
}

/** Files in one API's recordings directory (`dir` is e.g. `openai-chat`), metadata files excluded. */
export function listRecordings(dir: string): string[] {
  return readdirSync(join(RECORDINGS_ROOT, dir))
    .filter((name) => !name.endsWith('.meta.json'))
    .sort();
}

/**
 * A recording with the status and content-type it was served with: from its `.meta.json` when there is
 * one; otherwise 200 with `application/json` for `.json` files and `text/event-stream` for the rest.
 */
export function loadRecording(dir: string, file: string): Recording {
  const path = join(RECORDINGS_ROOT, dir, file);
  const body = readFileSync(path, 'utf8');
  const metaPath = `${path}.meta.json`;
  if (existsSync(metaPath)) {
    const meta = JSON.parse(readFileSync(metaPath, 'utf8')) as MetaFile;
    const recorded = meta.response?.headers_subset ?? {};
    const contentType = recorded['content-type'] ?? defaultContentType(file);
    return { status: meta.response?.status ?? 200, headers: { 'content-type': contentType }, body };
  }
  return { status: 200, headers: { 'content-type': defaultContentType(file) }, body };
}

function defaultContentType(file: string): string {
  return file.endsWith('.json') ? 'application/json' : 'text/event-stream; charset=utf-8';
}

/** The non-empty lines of a chunk-per-line file (or of its text). */
export function chunkLines(text: string): string[] {
  return text.split('\n').filter((line) => line.trim() !== '');
}

/**
 * SSE frames for a chunk-per-line file's payloads, as the real API frames them: named events for
 * Anthropic and Responses, bare `data:` frames plus `data: [DONE]` for Chat Completions, and `\r\n\r\n`
 * frame ends for Gemini.
 */
export function sseChunksFromChunkFile(lines: readonly string[], framing: SseFraming): string[] {
  const payloads = lines.filter((line) => line.trim() !== '');
  switch (framing) {
    case 'openai-chat':
      return [...payloads.map((line) => `data: ${line}\n\n`), 'data: [DONE]\n\n'];
    case 'openai-responses':
    case 'anthropic-messages':
      return payloads.map(
        (line) => `event: ${String((JSON.parse(line) as { type?: unknown }).type)}\ndata: ${line}\n\n`,
      );
    case 'gemini':
      return payloads.map((line) => `data: ${line}\r\n\r\n`);
    default: {
      const exhaustive: never = framing;
      throw new Error(`unknown framing ${String(exhaustive)}`);
    }
  }
}

/**
 * Splits `text` into `count` pieces of uneven, deterministic sizes (so SSE frames and even lines are
 * cut at arbitrary places), never inside a UTF-16 surrogate pair. Joined, the pieces give back `text`.
 */
export function splitIntoChunks(text: string, count: number): string[] {
  if (count <= 1 || text.length < 2) return [text];
  const cuts = new Set<number>();
  for (let index = 1; index < count; index += 1) {
    // Golden-ratio spacing gives irregular but reproducible cut points.
    let cut = Math.floor(((index * 0.618_033_988_75) % 1) * text.length);
    const code = text.charCodeAt(cut - 1);
    if (code >= 0xd800 && code <= 0xdbff) cut += 1;
    if (cut > 0 && cut < text.length) cuts.add(cut);
  }
  const sorted = [...cuts].sort((a, b) => a - b);
  const chunks: string[] = [];
  let start = 0;
  for (const cut of sorted) {
    chunks.push(text.slice(start, cut));
    start = cut;
  }
  chunks.push(text.slice(start));
  return chunks;
}

/** A recording served as the fake provider's raw step, its body split into `pieces` chunks. */
export function rawStep(recording: Recording, pieces = 7): RawStep {
  return {
    type: 'raw',
    status: recording.status,
    headers: recording.headers,
    chunks: splitIntoChunks(recording.body, pieces),
  };
}
