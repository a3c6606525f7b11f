import type { InventoryEvent } from "../../domain/inventory/inventory-event.js";
import type { FeedEvent, InventoryEventFeed } from "../../ports/inventory-event-feed.js";
import type { DeliverEvents, InventoryOutbox } from "../../ports/inventory-outbox.js";

const CURSOR = /^[0-9a-f]{16}$/;
const toCursor = (seq: number) => seq.toString(16).padStart(16, "0");

/**
 * The outbox in process memory: the in-memory repositories append to it, as the SQL ones insert
 * rows. It is its own event feed too; appends happen in order, so a sequence number is a cursor.
 */
export class MemoryInventoryOutbox implements InventoryOutbox, InventoryEventFeed {
  private readonly rows: { seq: number; event: InventoryEvent; deliveredAt: Date | null }[] = [];
  private lastSeq = 0;
  /** A delivery in progress: one at a time, as a single process's claims are. */
  private busy = false;

  append(events: readonly InventoryEvent[] | undefined): void {
    for (const event of events ?? []) this.rows.push({ seq: ++this.lastSeq, event, deliveredAt: null });
  }

  /** Every event written so far, delivered or not, oldest first (tests). */
  all(): InventoryEvent[] {
    return this.rows.map((row) => row.event);
  }

  async deliverNext(limit: number, deliver: DeliverEvents): Promise<number> {
    if (this.busy) return 0;
    const claimed = this.rows.filter((row) => row.deliveredAt === null).slice(0, limit);
    if (claimed.length === 0) return 0;
    this.busy = true;
    try {
      await deliver(claimed.map((row) => row.event));
    } finally {
      this.busy = false;
    }
    const now = new Date();
    for (const row of claimed) row.deliveredAt = now;
    return claimed.length;
  }

  async prune(before: Date): Promise<number> {
    let removed = 0;
    for (let index = this.rows.length - 1; index >= 0; index--) {
      const deliveredAt = this.rows[index]?.deliveredAt ?? null;
      if (deliveredAt !== null && deliveredAt < before) {
        this.rows.splice(index, 1);
        removed++;
      }
    }
    return removed;
  }

  async pendingCount(): Promise<number> {
    return this.rows.filter((row) => row.deliveredAt === null).length;
  }

  async head(): Promise<string> {
    return toCursor(this.lastSeq);
  }

  async readAfter(
    householdIds: readonly string[] | null,
    after: string,
    limit: number,
    until?: string,
  ): Promise<FeedEvent[]> {
    const found: FeedEvent[] = [];
    for (const row of this.rows) {
      if (found.length >= limit) break;
      const cursor = toCursor(row.seq);
      if (cursor <= after || (until !== undefined && cursor > until)) continue;
      if (householdIds !== null && !householdIds.includes(row.event.householdId)) continue;
      found.push({ cursor, event: row.event });
    }
    return found;
  }

  async retainsAfter(cursor: string): Promise<boolean> {
    const oldest = this.rows[0];
    return oldest ? cursor >= toCursor(oldest.seq - 1) : cursor >= toCursor(this.lastSeq);
  }

  isCursor(value: string): boolean {
    return CURSOR.test(value);
  }
}
