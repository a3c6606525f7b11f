/** An opaque handle of a pending timer (Node's Timeout, or whatever a fake returns). */
export type TimerHandle = object;

/** Timers behind an interface, so debounces and schedules run on fake time in tests. */
export interface Timer {
  setTimeout(callback: () => void, delayMs: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

export const TIMER = Symbol("Timer");

/** Node's timers; unref'd so a pending debounce or schedule never keeps the process alive. */
export const systemTimer: Timer = {
  setTimeout(callback, delayMs) {
    const handle = setTimeout(callback, delayMs);
    handle.unref?.();
    return handle;
  },
  clearTimeout(handle) {
    clearTimeout(handle as ReturnType<typeof setTimeout>);
  },
};

/**
 * Node's timers, left referenced: for a deadline the process has to live to see, such as a
 * stop waiting for runs whose own work holds nothing open (Node would otherwise exit before
 * the state is saved).
 */
export const referencedTimer: Timer = {
  setTimeout: (callback, delayMs) => setTimeout(callback, delayMs),
  clearTimeout(handle) {
    clearTimeout(handle as ReturnType<typeof setTimeout>);
  },
};

/**
 * `work`'s outcome, or, when `ms` pass first, whatever `late()` returns (or throws). The timer
 * is cleared as soon as `work` settles, and a rejection of `work` after the deadline is
 * handled here, so it never surfaces as an unhandled rejection.
 */
export function withinTime<T, L>(work: Promise<T>, ms: number, late: () => L, timer: Timer): Promise<T | L> {
  return new Promise<T | L>((resolve, reject) => {
    const handle = timer.setTimeout(() => {
      try {
        resolve(late());
      } catch (error) {
        reject(error);
      }
    }, ms);
    work.then(
      (value) => {
        timer.clearTimeout(handle);
        resolve(value);
      },
      (error: unknown) => {
        timer.clearTimeout(handle);
        reject(error);
      },
    );
  });
}
