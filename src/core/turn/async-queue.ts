/** A push-to-pull bridge: callbacks push values, one consumer iterates them until `end()`. */
export class AsyncQueue<T> implements AsyncIterable<T> {
  private readonly values: T[] = [];
  private ended = false;
  private wake: (() => void) | undefined;

  push(value: T): void {
    if (this.ended) return;
    this.values.push(value);
    this.signal();
  }

  end(): void {
    this.ended = true;
    this.signal();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for (;;) {
      const value = this.values.shift();
      if (value !== undefined) {
        yield value;
        continue;
      }
      if (this.ended) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  private signal(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
