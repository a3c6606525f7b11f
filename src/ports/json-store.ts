/**
 * Durable storage of one JSON document (the state store, the device registry).
 * Writes are atomic: a reader or a crash never sees a half-written document.
 */
export interface JsonStore {
  /** The stored document, or undefined when there is none (or it was corrupt and moved aside). */
  load(): Promise<unknown>;
  save(document: unknown): Promise<void>;
}
