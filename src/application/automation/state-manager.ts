import { findNonFiniteNumber, NonFiniteStateValueError } from "../../domain/automation/state-value.js";
import type { JsonStore } from "../../ports/json-store.js";
import type { Logger } from "../../ports/logger.js";
import { systemTimer, type Timer, type TimerHandle } from "../../ports/timer.js";
import type { StateChangeHandler, StateManagerApi } from "../../ports/state-store.js";

export interface StateManagerOptions {
  /** Keep state on disk. Default false. */
  persist?: boolean;
  /** Where the state file lives (used by composition to build the store). Default ./state.json. */
  filePath?: string;
}

export interface StateManagerDependencies {
  logger: Logger;
  /** Required when persist is on. */
  store?: JsonStore;
  timer?: Timer;
  /** Longest a change waits before it is written. Default 1000 ms. */
  writeDelayMs?: number;
}

/** More listeners than this on one key logs a warning: usually a leak. */
const LISTENER_WARNING_THRESHOLD = 10;

/**
 * The engine's key-value state. Listeners fire only when a value really changes:
 * primitives by strict equality, objects by their JSON text. With persistence on, every
 * change is written through at most `writeDelayMs` later and once more at stop.
 */
export class StateManager implements StateManagerApi {
  private readonly values = new Map<string, unknown>();
  private readonly keyListeners = new Map<string, StateChangeHandler[]>();
  private readonly anyListeners: StateChangeHandler[] = [];
  private readonly persist: boolean;
  private readonly timer: Timer;
  private readonly writeDelayMs: number;
  private pendingWrite: TimerHandle | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    options: StateManagerOptions,
    private readonly dependencies: StateManagerDependencies,
  ) {
    this.persist = options.persist ?? false;
    if (this.persist && !dependencies.store) throw new TypeError("StateManager: persist needs a store");
    this.timer = dependencies.timer ?? systemTimer;
    this.writeDelayMs = dependencies.writeDelayMs ?? 1000;
  }

  get<T = unknown>(key: string, defaultValue?: T): T | undefined {
    return this.values.has(key) ? (this.values.get(key) as T) : defaultValue;
  }

  /**
   * Throws {@link NonFiniteStateValueError} for a value holding NaN or ±Infinity, changing
   * nothing: JSON would save it as null, so the file and memory would disagree.
   */
  set(key: string, value: unknown): void {
    refuseNonFinite(key, value);
    const had = this.values.has(key);
    const previous = this.values.get(key);
    if (had && sameValue(previous, value)) return;
    if (value === undefined) {
      // undefined cannot be stored in JSON; setting it means deleting the key.
      this.delete(key);
      return;
    }
    this.values.set(key, value);
    this.changed(key, value, previous);
  }

  /**
   * Stores `value` as set() does (persisted too) without calling change listeners: for a
   * reading that is not an event to react to, such as a relay's power figure.
   */
  setQuietly(key: string, value: unknown): void {
    refuseNonFinite(key, value);
    if (value === undefined || (this.values.has(key) && sameValue(this.values.get(key), value))) return;
    this.values.set(key, value);
    this.scheduleWrite();
  }

  delete(key: string): boolean {
    if (!this.values.has(key)) return false;
    const previous = this.values.get(key);
    this.values.delete(key);
    this.changed(key, undefined, previous);
    return true;
  }

  has(key: string): boolean {
    return this.values.has(key);
  }

  keys(): string[] {
    return [...this.values.keys()];
  }

  entries(): Record<string, unknown> {
    return Object.fromEntries(this.values);
  }

  onChange(key: string, handler: StateChangeHandler): void {
    const listeners = this.keyListeners.get(key) ?? [];
    this.keyListeners.set(key, [...listeners, handler]);
    if (listeners.length + 1 > LISTENER_WARNING_THRESHOLD) {
      this.dependencies.logger.warn("More than 10 state listeners on one key; is something leaking?", {
        key,
        listeners: listeners.length + 1,
      });
    }
  }

  offChange(key: string, handler: StateChangeHandler): void {
    const listeners = this.keyListeners.get(key);
    if (!listeners) return;
    const remaining = withoutOne(listeners, handler);
    if (remaining.length === 0) this.keyListeners.delete(key);
    else this.keyListeners.set(key, remaining);
  }

  onAnyChange(handler: StateChangeHandler): void {
    this.anyListeners.push(handler);
  }

  offAnyChange(handler: StateChangeHandler): void {
    const at = this.anyListeners.indexOf(handler);
    if (at >= 0) this.anyListeners.splice(at, 1);
  }

  /**
   * Replaces the in-memory state with the stored document (no listeners fire). A document
   * that is not a JSON object is moved aside, never overwritten, and state starts empty.
   */
  async load(): Promise<void> {
    const store = this.dependencies.store;
    if (!store) return;
    const document = await store.load();
    this.values.clear();
    if (document === undefined) return;
    if (document === null || typeof document !== "object" || Array.isArray(document)) {
      const movedTo = await store.moveAside();
      this.dependencies.logger.warn(
        "State file does not hold a JSON object; moved it aside and starting with empty state",
        {
          movedTo,
        },
      );
      return;
    }
    for (const [key, value] of Object.entries(document)) this.values.set(key, value);
    this.dependencies.logger.info("State loaded", { keys: this.values.size });
  }

  /** Writes the state now (cancelling a pending debounced write). */
  async save(): Promise<void> {
    if (!this.dependencies.store) return;
    if (this.pendingWrite) {
      this.timer.clearTimeout(this.pendingWrite);
      this.pendingWrite = undefined;
    }
    const store = this.dependencies.store;
    const snapshot = this.entries();
    // After the write before it, whether that one failed or not: chained on a failed write
    // alone, every later save (the one at stop included) would be skipped, and a disk full
    // for a moment would keep the state from ever being saved again.
    const saveKeeping = async () => {
      try {
        await store.save(snapshot);
      } catch (error) {
        await this.saveWithout(snapshot, error);
      }
    };
    const write = this.writing.then(saveKeeping, saveKeeping);
    this.writing = write;
    await write;
  }

  /**
   * A value JSON cannot hold (a cycle, a BigInt, nesting deeper than the stack) fails the whole
   * document; left so, no change to any key would be saved again. The keys whose values can be
   * written are saved, and each one that cannot is named in the log.
   */
  private async saveWithout(snapshot: Record<string, unknown>, error: unknown): Promise<void> {
    if (!(error instanceof TypeError || error instanceof RangeError)) throw error;
    // Collected as entries: a key "__proto__" assigned to an object would set its prototype, not a key.
    const savable: [string, unknown][] = [];
    const unsavable: { key: string; reason: string }[] = [];
    for (const [key, value] of Object.entries(snapshot)) {
      try {
        JSON.stringify(value);
        savable.push([key, value]);
      } catch (reason) {
        unsavable.push({ key, reason: reason instanceof Error ? reason.message : String(reason) });
      }
    }
    if (unsavable.length === 0) throw error;
    for (const { key, reason } of unsavable) {
      this.dependencies.logger.error("State key cannot be saved as JSON; it is kept in memory only", { key, reason });
    }
    await this.dependencies.store?.save(Object.fromEntries(savable));
  }

  /** Waits for writes in flight (tests, shutdown). */
  async flush(): Promise<void> {
    if (this.pendingWrite) await this.save();
    else await this.writing;
  }

  private changed(key: string, newValue: unknown, oldValue: unknown): void {
    this.scheduleWrite();
    const listeners = this.keyListeners.get(key);
    if (listeners) for (const listener of listeners) this.notify(listener, key, newValue, oldValue);
    for (const listener of [...this.anyListeners]) this.notify(listener, key, newValue, oldValue);
  }

  private notify(listener: StateChangeHandler, key: string, newValue: unknown, oldValue: unknown): void {
    try {
      listener(key, newValue, oldValue);
    } catch (error) {
      this.dependencies.logger.error("State listener failed", { key, err: error });
    }
  }

  /** Debounce without resetting: the first change arms the timer, so a write is never more than the delay behind. */
  private scheduleWrite(): void {
    if (!this.persist || this.pendingWrite) return;
    this.pendingWrite = this.timer.setTimeout(() => {
      this.pendingWrite = undefined;
      this.save().catch((error: unknown) => this.dependencies.logger.error("Saving state failed", { err: error }));
    }, this.writeDelayMs);
  }
}

function refuseNonFinite(key: string, value: unknown): void {
  const found = findNonFiniteNumber(value);
  if (found !== null) throw new NonFiniteStateValueError(key, found);
}

function sameValue(previous: unknown, next: unknown): boolean {
  if (previous === next) return true;
  if (typeof previous !== "object" || typeof next !== "object" || previous === null || next === null) return false;
  try {
    return JSON.stringify(previous) === JSON.stringify(next);
  } catch {
    // Cyclic values cannot be compared as text; treat them as changed.
    return false;
  }
}

function withoutOne<T>(list: readonly T[], item: T): T[] {
  const at = list.indexOf(item);
  return at < 0 ? [...list] : [...list.slice(0, at), ...list.slice(at + 1)];
}
