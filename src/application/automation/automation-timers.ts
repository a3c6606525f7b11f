import type { Logger } from "../../ports/logger.js";
import type { Timer, TimerHandle } from "../../ports/timer.js";

/** A timer started with `after()` or `every()`; `cancel()` stops it (calling it twice is harmless). */
export interface ScheduledTimer {
  cancel(): void;
}

interface Series {
  handle: TimerHandle | undefined;
}

/**
 * The timers one automation started through its own helpers. The engine owns them, so
 * stopping or reloading the automation clears every one: a raw `setTimeout` in an
 * automation outlives the instance that started it (the engine cannot see it), keeps the
 * old class and everything it references alive, and fires its callback against an instance
 * whose triggers are gone.
 */
export class AutomationTimers {
  private readonly series = new Set<Series>();

  constructor(
    private readonly timer: Timer,
    private readonly logger: Logger,
    /** Runs each callback (outside any run's trace); the callback's errors are caught and logged. */
    private readonly invoke: (callback: () => unknown) => unknown = (callback) => callback(),
  ) {}

  /** Calls `callback` once, `ms` from now. */
  after(ms: number, callback: () => unknown): ScheduledTimer {
    checkDelay(ms, "after");
    const entry: Series = { handle: undefined };
    entry.handle = this.timer.setTimeout(() => {
      this.series.delete(entry);
      entry.handle = undefined;
      this.call(callback, "after");
    }, ms);
    this.series.add(entry);
    return { cancel: () => this.cancel(entry) };
  }

  /** Calls `callback` every `ms` until cancelled, stopped or reloaded. */
  every(ms: number, callback: () => unknown): ScheduledTimer {
    checkDelay(ms, "every");
    if (ms <= 0) throw new RangeError("every(ms) needs an interval above 0 ms");
    const entry: Series = { handle: undefined };
    const arm = () => {
      entry.handle = this.timer.setTimeout(() => {
        // Re-armed before the callback, so a failing callback cannot end the series.
        arm();
        this.call(callback, "every");
      }, ms);
    };
    arm();
    this.series.add(entry);
    return { cancel: () => this.cancel(entry) };
  }

  /** Cancels every pending timer; returns how many there were. */
  clearAll(): number {
    const count = this.series.size;
    for (const entry of [...this.series]) this.cancel(entry);
    return count;
  }

  /** Pending timers (tests and the debug API). */
  get pending(): number {
    return this.series.size;
  }

  private cancel(entry: Series): void {
    if (entry.handle !== undefined) this.timer.clearTimeout(entry.handle);
    entry.handle = undefined;
    this.series.delete(entry);
  }

  private call(callback: () => unknown, helper: string): void {
    try {
      const result = this.invoke(callback);
      if (result !== null && typeof result === "object" && typeof (result as Promise<unknown>).then === "function") {
        (result as Promise<unknown>).then(undefined, (error: unknown) => this.failed(error, helper));
      }
    } catch (error) {
      this.failed(error, helper);
    }
  }

  private failed(error: unknown, helper: string): void {
    this.logger.error(`A ${helper}() timer callback failed`, { err: error });
  }
}

function checkDelay(ms: number, helper: string): void {
  if (typeof ms !== "number" || !Number.isFinite(ms) || ms < 0) {
    throw new RangeError(`${helper}(ms) needs a delay of 0 ms or more, got ${String(ms)}`);
  }
}
