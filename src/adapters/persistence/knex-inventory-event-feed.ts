import type { Knex } from "knex";
import type { FeedEvent, InventoryEventFeed } from "../../ports/inventory-event-feed.js";
import { readOutboxEvent } from "./knex-inventory-outbox.js";

const HEX = 16;
const CURSOR = /^[0-9a-f]{32}$/;

/** (transaction id, seq) as one fixed-width string that sorts like the pair. */
function toCursor(tx: bigint, seq: bigint): string {
  return tx.toString(16).padStart(HEX, "0") + seq.toString(16).padStart(HEX, "0");
}

function fromCursor(cursor: string): [string, string] {
  return [BigInt(`0x${cursor.slice(0, HEX)}`).toString(), BigInt(`0x${cursor.slice(HEX)}`).toString()];
}

/** The oldest transaction still running anywhere: rows of older ones are final. */
const SETTLED = "pg_snapshot_xmin(pg_current_snapshot())::text::bigint";

/**
 * The outbox read by (writing transaction, seq) on PostgreSQL or PGlite; see the migration
 * 20261125120000_inventory_event_feed for why the transaction id leads the cursor.
 */
export class KnexInventoryEventFeed implements InventoryEventFeed {
  constructor(private readonly knex: Knex) {}

  async head(): Promise<string> {
    const result = await this.knex.raw<{ rows: { settled: string }[] }>(`SELECT ${SETTLED} AS settled`);
    return toCursor(BigInt(result.rows[0]?.settled ?? 0), 0n);
  }

  async readAfter(
    householdIds: readonly string[] | null,
    after: string,
    limit: number,
    until?: string,
  ): Promise<FeedEvent[]> {
    if (householdIds !== null && householdIds.length === 0) return [];
    const [afterTx, afterSeq] = fromCursor(after);
    const bindings: (string | number)[] = [afterTx, afterSeq];
    let where = `(tx, seq) > (?::bigint, ?::bigint) AND tx < ${SETTLED}`;
    if (until !== undefined) {
      where += " AND (tx, seq) <= (?::bigint, ?::bigint)";
      bindings.push(...fromCursor(until));
    }
    if (householdIds !== null) {
      where += ` AND household_id IN (${householdIds.map(() => "?").join(", ")})`;
      bindings.push(...householdIds);
    }
    const result = await this.knex.raw<{ rows: { tx: string; seq: string | number; event: string }[] }>(
      `SELECT tx::text AS tx, seq, event FROM inventory_outbox WHERE ${where} ORDER BY tx, seq LIMIT ?`,
      [...bindings, limit],
    );
    return result.rows.map((row) => ({
      cursor: toCursor(BigInt(row.tx), BigInt(row.seq)),
      event: readOutboxEvent(row.event),
    }));
  }

  async retainsAfter(cursor: string): Promise<boolean> {
    const result = await this.knex.raw<{ rows: { tx: string; seq: string | number }[] }>(
      "SELECT tx::text AS tx, seq FROM inventory_outbox ORDER BY tx, seq LIMIT 1",
    );
    const oldest = result.rows[0];
    // Nothing kept at all: only a cursor from now on has missed nothing.
    if (!oldest) return cursor >= (await this.head());
    return cursor >= toCursor(BigInt(oldest.tx), BigInt(oldest.seq));
  }

  isCursor(value: string): boolean {
    return CURSOR.test(value);
  }
}
