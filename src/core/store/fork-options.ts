/** How `fork` branches (a plain type: the library's public declarations reach it). */
export interface ForkOptions {
  /**
   * Keep the person's messages 1..n (1-based, counted in the live history) and what they led to, as
   * `cody fork --at n` does; the first message left out is recorded as where it branched. Default: the
   * whole history.
   */
  atUserTurn?: number;
}
