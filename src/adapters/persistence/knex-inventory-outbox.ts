import type { Knex } from "knex";
import type { InventoryEvent } from "../../domain/inventory/inventory-event.js";
import type { DeliverEvents, InventoryOutbox } from "../../ports/inventory-outbox.js";

interface OutboxRow {
  seq: number | string;
  event: string;
}

/** Writes events inside the caller's transaction: they commit (or roll back) with the change. */
export async function writeOutboxEvents(
  db: Knex | Knex.Transaction,
  events: readonly InventoryEvent[] | undefined,
): Promise<void> {
  if (!events || events.length === 0) return;
  await db("inventory_outbox").insert(events.map(outboxRow));
}

/** An outbox row as written (its sequence number is the table's). */
export interface OutboxInsert {
  id: string;
  household_id: string;
  type: string;
  occurred_at: Date;
  event: string;
}

/** The outbox row of an event. */
export function outboxRow(event: InventoryEvent): OutboxInsert {
  return {
    id: event.id,
    household_id: event.householdId,
    type: event.type,
    occurred_at: event.occurredAt,
    event: JSON.stringify(event),
  };
}

/** An outbox row back into an event (the JSON the row was written from; dates revived). */
export function readOutboxEvent(text: string): InventoryEvent {
  const parsed = JSON.parse(text) as InventoryEvent & { occurredAt: string };
  return { ...parsed, occurredAt: new Date(parsed.occurredAt) } as InventoryEvent;
}

/**
 * The outbox on PostgreSQL or PGlite. A claim locks the oldest undelivered event of each
 * household it takes (`FOR UPDATE SKIP LOCKED`): another process skips those households
 * until the claim commits, and never takes a later event of them meanwhile (it is not the
 * oldest one), so each household's events go out once and in order.
 */
export class KnexInventoryOutbox implements InventoryOutbox {
  /**
   * `exclusive`: this process is the only one that delivers (PGlite, which one process opens).
   * Then no claim lock is needed, and none is held while the sinks run: on PGlite a transaction
   * holds the database's only connection, so a slow MQTT broker or a busy automation would stall
   * every request of the inventory until delivery finished.
   */
  constructor(
    private readonly knex: Knex,
    private readonly options: { exclusive?: boolean } = {},
  ) {}

  async deliverNext(limit: number, deliver: DeliverEvents): Promise<number> {
    if (this.options.exclusive) {
      // One dispatcher drains at a time, oldest first: each household's events still go out in
      // order, and at least once (a crash before the mark sends them again).
      const claimed = await this.knex.raw<{ rows: OutboxRow[] }>(
        `SELECT seq, event FROM inventory_outbox WHERE delivered_at IS NULL ORDER BY seq LIMIT ?`,
        [limit],
      );
      if (claimed.rows.length === 0) return 0;
      await deliver(claimed.rows.map((row) => readOutboxEvent(row.event)));
      await this.markDelivered(this.knex, claimed.rows);
      return claimed.rows.length;
    }
    return this.knex.transaction(async (trx) => {
      const heads = await trx.raw<{ rows: { household_id: string }[] }>(
        `SELECT o.household_id FROM inventory_outbox o
         WHERE o.delivered_at IS NULL
           AND NOT EXISTS (
             SELECT 1 FROM inventory_outbox e
             WHERE e.household_id = o.household_id AND e.delivered_at IS NULL AND e.seq < o.seq)
         ORDER BY o.seq
         LIMIT ?
         FOR UPDATE SKIP LOCKED`,
        [limit],
      );
      if (heads.rows.length === 0) return 0;
      const households = heads.rows.map((row) => row.household_id);
      const claimed = await trx.raw<{ rows: OutboxRow[] }>(
        `SELECT seq, event FROM inventory_outbox
         WHERE delivered_at IS NULL AND household_id IN (${households.map(() => "?").join(", ")})
         ORDER BY seq
         LIMIT ?
         FOR UPDATE`,
        [...households, limit],
      );
      await deliver(claimed.rows.map((row) => readOutboxEvent(row.event)));
      await this.markDelivered(trx, claimed.rows);
      return claimed.rows.length;
    });
  }

  private async markDelivered(knex: Knex, rows: OutboxRow[]): Promise<void> {
    await knex("inventory_outbox")
      .whereIn(
        "seq",
        rows.map((row) => Number(row.seq)),
      )
      .update({ delivered_at: new Date() });
  }

  async prune(before: Date): Promise<number> {
    // RETURNING rather than the affected-row count, which knex-pglite does not report for deletes.
    const result = await this.knex.raw<{ rows: unknown[] }>(
      "DELETE FROM inventory_outbox WHERE delivered_at IS NOT NULL AND delivered_at < ? RETURNING seq",
      [before],
    );
    return result.rows.length;
  }

  async pendingCount(): Promise<number> {
    const result = await this.knex.raw<{ rows: { pending: number | string }[] }>(
      "SELECT count(*) AS pending FROM inventory_outbox WHERE delivered_at IS NULL",
    );
    return Number(result.rows[0]?.pending ?? 0);
  }
}
