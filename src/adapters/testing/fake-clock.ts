import type { Clock } from "../../ports/clock.js";
import type { Timer, TimerHandle } from "../../ports/timer.js";

interface PendingTimer {
  at: number;
  order: number;
  callback: () => void;
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Raised for a duration the test kit cannot read. */
export class InvalidDurationError extends RangeError {
  override readonly name = "InvalidDurationError";
}

/**
 * Milliseconds of a duration: a number of ms, or text such as `"500ms"`, `"15m"`,
 * `"1h30m"`, `"2d"` (units ms, s, m, h, d).
 */
export function parseDuration(duration: number | string): number {
  if (typeof duration === "number") {
    if (!Number.isFinite(duration) || duration < 0)
      throw new InvalidDurationError(`Expected 0 ms or more, got ${duration}`);
    return duration;
  }
  const text = String(duration).trim();
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)/g)];
  if (
    parts.length === 0 ||
    parts
      .map((part) => part[0])
      .join("")
      .replace(/\s/g, "") !== text.replace(/\s/g, "")
  ) {
    throw new InvalidDurationError(
      `Cannot read the duration ${JSON.stringify(duration)}: use e.g. "500ms", "15m", "1h30m" or a number of ms`,
    );
  }
  return parts.reduce((total, part) => total + Number(part[1]) * (UNITS[part[2] as string] as number), 0);
}

/**
 * A clock and the timers that run on it. Nothing moves until `advance()`, which fires every
 * timer falling due on the way, in time order, waiting for the work each one starts.
 */
export class FakeClock implements Clock, Timer {
  private current: number;
  private readonly pending = new Map<TimerHandle, PendingTimer>();
  private sequence = 0;

  constructor(start: Date | string | number = "2026-01-01T00:00:00Z") {
    this.current = new Date(start).getTime();
    if (Number.isNaN(this.current))
      throw new InvalidDurationError(`Cannot read the start time ${JSON.stringify(start)}`);
  }

  now(): Date {
    return new Date(this.current);
  }

  setTimeout(callback: () => void, delayMs: number): TimerHandle {
    const handle = {};
    this.pending.set(handle, { at: this.current + Math.max(0, delayMs), order: this.sequence++, callback });
    return handle;
  }

  clearTimeout(handle: TimerHandle): void {
    this.pending.delete(handle);
  }

  /** Timers waiting to fire. */
  get pendingTimers(): number {
    return this.pending.size;
  }

  /**
   * Moves time forward by `duration`, firing due timers in order; after each one,
   * `settle()` lets the work it started finish before time moves on.
   */
  async advance(duration: number | string, settle: () => Promise<void> = async () => {}): Promise<void> {
    const target = this.current + parseDuration(duration);
    for (;;) {
      const next = this.nextDue(target);
      if (!next) break;
      this.pending.delete(next[0]);
      this.current = Math.max(this.current, next[1].at);
      next[1].callback();
      await settle();
    }
    this.current = target;
    await settle();
  }

  private nextDue(target: number): [TimerHandle, PendingTimer] | undefined {
    let next: [TimerHandle, PendingTimer] | undefined;
    for (const entry of this.pending) {
      const timer = entry[1];
      if (timer.at > target) continue;
      if (!next || timer.at < next[1].at || (timer.at === next[1].at && timer.order < next[1].order)) next = entry;
    }
    return next;
  }
}
