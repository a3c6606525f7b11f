/** Source of the current time, so use cases and timers can be driven by a fake clock in tests. */
export interface Clock {
  now(): Date;
}

export const CLOCK = Symbol("Clock");

export const systemClock: Clock = { now: () => new Date() };

/**
 * `clock`, but never the same millisecond twice and never backwards: each call answers at
 * least one millisecond after the previous answer. Lists order items by when they were
 * created or archived; two writes a client makes one after the other now often land in the
 * same millisecond, and the order between them must still be the order they were made in.
 * Under more than a thousand calls a second the answers would run ahead of real time; they
 * run at most `maxLeadMs` ahead, after which two answers may share a millisecond again.
 */
export function monotonicClock(clock: Clock, maxLeadMs = 1000): Clock {
  let last = Number.NEGATIVE_INFINITY;
  // The latest real time seen: the lead is counted from it, so a clock stepping back (an NTP
  // correction) never makes the answers step back too.
  let latest = Number.NEGATIVE_INFINITY;
  return {
    now() {
      const now = clock.now().getTime();
      latest = Math.max(latest, now);
      last = now > last ? now : Math.max(last, Math.min(last + 1, latest + maxLeadMs));
      return new Date(last);
    },
  };
}
