/** The CLI's exit codes (documented in the README) and how core's error kinds map to them. */
import type { ErrorHint, ErrorKind } from '../core/index.js';

export const ExitCode = {
  ok: 0,
  /** A turn failed for a reason not covered below (e.g. the stream ended with an error). */
  failure: 1,
  /** Bad command-line usage or an invalid option value. */
  usage: 2,
  /** Unknown conversation id, or a prefix that matches several. */
  unknownConversation: 3,
  /** Missing or rejected API key. */
  auth: 4,
  /** The provider answered with an HTTP error or the network failed (after retries). */
  provider: 5,
  /** A rollout file has a corrupt line. */
  corruptRollout: 6,
  /** Another process held the conversation lock past the timeout (or a turn is already running). */
  lockTimeout: 7,
  /** CODY_HOME or a rollout could not be read or written. */
  storage: 8,
  /** Interrupted by the user (SIGINT). */
  interrupted: 130,
  /** A bug: an unexpected error. */
  internal: 70,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

const BY_KIND: Readonly<Record<ErrorKind, ExitCodeValue>> = {
  usage: ExitCode.usage,
  'not-found': ExitCode.unknownConversation,
  ambiguous: ExitCode.unknownConversation,
  auth: ExitCode.auth,
  provider: ExitCode.provider,
  corrupt: ExitCode.corruptRollout,
  locked: ExitCode.lockTimeout,
  storage: ExitCode.storage,
  busy: ExitCode.lockTimeout,
  interrupted: ExitCode.interrupted,
  failure: ExitCode.failure,
  internal: ExitCode.internal,
};

export function exitCodeFor(kind: ErrorKind): ExitCodeValue {
  return BY_KIND[kind];
}

type HintWords = (subject: string, model: string | undefined) => string;

const HINTS: Readonly<Record<ErrorHint, HintWords>> = {
  'list-conversations': () => 'List available: cody list',
  compact: () => "Run 'cody compact' to compact it by hand.",
  'choose-model': () => 'Choose another with: cody set-provider <provider> --model <model>',
  'store-key': (provider) => `Or store one with: cody auth login ${provider}`,
  'use-api-key': (provider) =>
    `For a key: cody auth login ${provider} (or its key variable), then cody set-provider ${provider} --auth key`,
  'store-keys-again': () => 'Then store keys again with: cody auth login <provider>',
  'choose-provider': (provider, model) =>
    `Use: cody set-provider ${provider}${model !== undefined ? ` --model ${model}` : ''}`,
};

/** The CLI's words for a hint core gave: the command to run next. */
export function hintText(hint: ErrorHint | undefined, subject = '<provider>', model?: string): string {
  return hint ? HINTS[hint](subject, model) : '';
}
