/**
 * The one owner of the rollout files under the conversations directory: where a conversation's file is,
 * creating and opening it for append, and the four ways it is read (resume's live history, the listing's
 * summary, the whole transcript and the recap's tail of it). Every reader parses a line with
 * `line.ts`'s `parseLine` and counts messages, previews and titles with `definitions.ts`.
 *
 * The writers, the resume reader and the transcript (zod) are imported when first used, so that holding
 * a store costs start-up nothing; the summary reader is small and synchronous.
 */
import { rolloutPathIn } from './rollout-path.js';
import type { TranscriptPage, TranscriptPageOptions } from '../rollout/index.js';
import type { RecorderOptions, RolloutRecorder } from './recorder.js';
import type { ResumedRollout } from './rollout-replay.js';
import type { SessionMetaPayload } from './schema.js';
import { type ConversationSummary, readConversationSummary } from './summary-reader.js';
import type { Transcript } from './transcript.js';
import type { HistoryAtEntry } from './history-at-entry.js';

/** The end of a rollout the recap reads: the last exchanges of a typical conversation, and more. */
export const RECAP_TAIL_BYTES = 256 * 1024;

export class RolloutStore {
  readonly conversationsDir: string;
  private readonly pathOf: (id: string) => string;

  constructor(conversationsDir: string) {
    this.conversationsDir = conversationsDir;
    this.pathOf = rolloutPathIn(conversationsDir);
  }

  /** The rollout file of a (whole, validated) conversation id. */
  path(id: string): string {
    return this.pathOf(id);
  }

  /** Creates a conversation's rollout (mode 0600; fails if it exists), its first line the session_meta. */
  async create(
    id: string,
    meta: Omit<SessionMetaPayload, 'timestamp'> & { timestamp?: string },
    options: RecorderOptions = {},
  ): Promise<RolloutRecorder> {
    const { RolloutRecorder } = await import('./recorder.js');
    return RolloutRecorder.create(this.path(id), meta, options);
  }

  /** Opens a conversation's rollout for appending (a torn tail is set aside on the first append). */
  async openForAppend(id: string, options: RecorderOptions = {}): Promise<RolloutRecorder> {
    const { RolloutRecorder } = await import('./recorder.js');
    return RolloutRecorder.open(this.path(id), options);
  }

  /** The live history and state, from the newest full compaction on. */
  async readForResume(id: string): Promise<ResumedRollout> {
    const { readRolloutForResume } = await import('./reader.js');
    return readRolloutForResume(this.path(id));
  }

  /** What `cody list` shows of it, from the head and tail only; never throws. */
  summary(id: string): ConversationSummary {
    return readConversationSummary(this.path(id), undefined, id);
  }

  /** Everything ever recorded, for `cody show`, export and the transcript route. */
  async transcript(id: string): Promise<Transcript> {
    const { readTranscript } = await import('./transcript.js');
    return readTranscript(this.path(id));
  }

  /** The live history as it stood after the turn of the typed user message at transcript `cursor`. */
  async historyAtEntry(id: string, cursor: string): Promise<HistoryAtEntry> {
    const { readHistoryAtEntry } = await import('./history-at-entry.js');
    return readHistoryAtEntry(this.path(id), cursor);
  }

  async transcriptPage(id: string, options: TranscriptPageOptions): Promise<TranscriptPage> {
    const { readTranscriptPage } = await import('./transcript-page.js');
    return readTranscriptPage(this.path(id), options);
  }

  /** The transcript of the file's last `bytes` (the REPL's recap): its cost does not grow with the file. */
  async recentTranscript(id: string, bytes: number = RECAP_TAIL_BYTES): Promise<Transcript> {
    const { readTranscriptTail } = await import('./transcript.js');
    return readTranscriptTail(this.path(id), bytes);
  }
}
