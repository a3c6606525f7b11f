/**
 * Durable storage of one JSON document (the state store, the device registry).
 * Writes are atomic: a reader or a crash never sees a half-written document.
 */
export interface JsonStore {
  /** The stored document, or undefined when there is none (or it was corrupt and moved aside). */
  load(): Promise<unknown>;
  save(document: unknown): Promise<void>;
  /**
   * Moves the stored document out of the way, for a document that parses but that its
   * owner cannot use (wrong shape), so the next save does not destroy what the user may
   * want to repair. Returns where it went, or null when nothing was stored.
   */
  moveAside(): Promise<string | null>;
}
