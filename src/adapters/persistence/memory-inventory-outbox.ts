import type { InventoryEvent } from "../../domain/inventory/inventory-event.js";
import type { DeliverEvents, InventoryOutbox } from "../../ports/inventory-outbox.js";

/** The outbox in process memory: the in-memory repositories append to it, as the SQL ones insert rows. */
export class MemoryInventoryOutbox implements InventoryOutbox {
  private readonly rows: { event: InventoryEvent; deliveredAt: Date | null }[] = [];
  /** A delivery in progress: one at a time, as a single process's claims are. */
  private busy = false;

  append(events: readonly InventoryEvent[] | undefined): void {
    for (const event of events ?? []) this.rows.push({ event, deliveredAt: null });
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
}
