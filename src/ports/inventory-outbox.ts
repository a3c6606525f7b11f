import type { InventoryEvent } from "../domain/inventory/inventory-event.js";

/** Hands claimed events on; a throw leaves them undelivered for the next round. */
export type DeliverEvents = (events: InventoryEvent[]) => Promise<void> | void;

/**
 * The delivery side of the transactional outbox of inventory events (the writing side is
 * part of each repository's transaction). Several processes may share one outbox: each event
 * is handed to exactly one of them per attempt, and a household's events in order.
 */
export interface InventoryOutbox {
  /**
   * Claims up to `limit` undelivered events, oldest first, of households no other process is
   * delivering right now; calls `deliver` with them and marks them delivered once it returns.
   * Returns how many were delivered.
   */
  deliverNext(limit: number, deliver: DeliverEvents): Promise<number>;
  /** Removes events delivered before `before`; returns how many. */
  prune(before: Date): Promise<number>;
  /** Undelivered events, for health output and tests. */
  pendingCount(): Promise<number>;
}

export const INVENTORY_OUTBOX = Symbol("InventoryOutbox");
