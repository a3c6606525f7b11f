/** Source of the current time, so use cases and timers can be driven by a fake clock in tests. */
export interface Clock {
  now(): Date;
}

export const CLOCK = Symbol("Clock");

export const systemClock: Clock = { now: () => new Date() };
