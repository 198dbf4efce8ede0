/** How `fork` branches (a plain type: the library's public declarations reach it). */
export interface ForkOptions {
  /**
   * Keep the person's messages 1..n (1-based, counted in the live history) and what they led to, as
   * `cody fork --at n` does; the first message left out is recorded as where it branched. Default: the
   * whole history.
   */
  atUserTurn?: number;
  /**
   * Branch after the typed user message at this transcript cursor (the `cursor` of a transcript page's
   * entry, 1-based), also one a compaction summarised away: the fork holds the history as it stood when
   * that message's turn ended. For a message still in the live history, the same fork as its `userTurn`
   * given as `atUserTurn`. Give at most one of the two.
   */
  atEntry?: string;
}
