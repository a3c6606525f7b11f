/** The automations' key/value state, with change listeners (the engine's StateManager implements it). */

export type StateChangeHandler = (key: string, newValue: unknown, oldValue: unknown) => void;

export interface StateManagerApi {
  get<T = unknown>(key: string, defaultValue?: T): T | undefined;
  set(key: string, value: unknown): void;
  delete(key: string): boolean;
  has(key: string): boolean;
  keys(): string[];
  /** Every key and value, for the debug API. */
  entries(): Record<string, unknown>;
  onChange(key: string, handler: StateChangeHandler): void;
  offChange(key: string, handler: StateChangeHandler): void;
  onAnyChange(handler: StateChangeHandler): void;
  offAnyChange(handler: StateChangeHandler): void;
  load(): Promise<void>;
  save(): Promise<void>;
}
