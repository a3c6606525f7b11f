import type { InventoryEvent } from "../domain/inventory/inventory-event.js";

/** An event with its position in the feed. */
export interface FeedEvent {
  cursor: string;
  event: InventoryEvent;
}

/**
 * The read side of the outbox for live streams: every process reads every household's events
 * by cursor, independently of which process delivers them to the engine. Cursors are opaque,
 * fixed-width strings of one feed: they compare as strings in the feed's order.
 */
export interface InventoryEventFeed {
  /** A cursor every event written so far is at or before, and every later event is after. */
  head(): Promise<string>;
  /**
   * Events after `after` (and at or before `until`, if given), in feed order, up to `limit`;
   * only of `householdIds` unless it is null. Never returns an event that a later read could
   * find before one already returned (an event is readable once its position is final).
   */
  readAfter(householdIds: readonly string[] | null, after: string, limit: number, until?: string): Promise<FeedEvent[]>;
  /** False when events after `cursor` may have been pruned (a client must reload instead of replaying). */
  retainsAfter(cursor: string): Promise<boolean>;
  /** Whether `value` has the shape of this feed's cursors. */
  isCursor(value: string): boolean;
}

export const INVENTORY_EVENT_FEED = Symbol("InventoryEventFeed");
