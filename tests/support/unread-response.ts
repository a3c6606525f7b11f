/**
 * A stand-in for an event stream's response whose client reads nothing: everything written
 * stays in its buffer (`writableLength`), and `destroy()` is recorded and ends it with "close".
 */
export function unreadResponse(locals: Record<string, unknown> = {}) {
  const written: string[] = [];
  const listeners: Record<string, () => void> = {};
  const state = { destroyed: false };
  const res = {
    locals,
    writableEnded: false,
    get destroyed() {
      return state.destroyed;
    },
    get writableLength() {
      return written.join("").length;
    },
    status: () => res,
    set: () => res,
    on: (event: string, listener: () => void) => {
      listeners[event] = listener;
      return res;
    },
    write: (chunk: string) => {
      written.push(chunk);
      return false;
    },
    destroy: () => {
      state.destroyed = true;
      listeners.close?.();
    },
  };
  return { res, written, state };
}
