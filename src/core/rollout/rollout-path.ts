/** Where a conversation's rollout file is: `<conversations dir>/<id>.jsonl`. */
import { join, sep } from 'node:path';

export const ROLLOUT_SUFFIX = '.jsonl';

/**
 * A conversation id's rollout path under `conversationsDir`: the directory is normalised once and the rest
 * concatenated (`cody list` asks for a thousand of these, and `path.join` costs ~3 µs each).
 */
export function rolloutPathIn(conversationsDir: string): (id: string) => string {
  const prefix = join(conversationsDir, sep);
  return (id) => `${prefix}${id}${ROLLOUT_SUFFIX}`;
}
