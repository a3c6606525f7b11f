/**
 * At most `size` holders at once; the others wait, in the order they came. What a holder
 * keeps in memory while it holds a turn is then bounded by the number of turns, whatever
 * the number of callers.
 */
export class Turns {
  private holding = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly size: number) {}

  /** Waits for a turn; the caller gives it back with {@link give}, once, whatever happens. */
  async take(): Promise<void> {
    if (this.holding < this.size) {
      this.holding++;
      return;
    }
    // The one giving its turn back hands it over: holding stays the same.
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  give(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.holding--;
  }

  /** Runs `work` in a turn. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    await this.take();
    try {
      return await work();
    } finally {
      this.give();
    }
  }
}
