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
