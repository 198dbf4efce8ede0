/** How `fork` branches (a plain type: the library's public declarations reach it). */
export interface ForkOptions {
  /**
   * Branch at the person's n-th message (1-based, counted in the live history): the fork holds what came
   * before it, and records that message's text as where it branched. Default: after the last turn.
   */
  atUserTurn?: number;
}
