import type { Knex } from "knex";
import type { CronFireLedger } from "../../ports/leader-lease.js";

/**
 * Cron ticks recorded in `engine_cron_fires`. A claim inserts the tick only while the given
 * token still holds a live lease: a leader that lost its lease without noticing yet cannot
 * fire, and the primary key keeps a tick from being claimed twice.
 */
export class KnexCronFireLedger implements CronFireLedger {
  constructor(
    private readonly knex: Knex,
    private readonly leaseName = "engine",
  ) {}

  async claim(jobId: string, firedAt: Date, token: number): Promise<boolean> {
    const result = await this.knex.raw<{ rows: unknown[] }>(
      `INSERT INTO engine_cron_fires (job_id, fired_at, token)
       SELECT ?, ?, ? WHERE EXISTS (
         SELECT 1 FROM engine_leases WHERE name = ? AND token = ? AND expires_at >= now())
       ON CONFLICT DO NOTHING
       RETURNING job_id`,
      [jobId, firedAt, token, this.leaseName, token],
    );
    return result.rows.length === 1;
  }

  async lastFired(jobId: string): Promise<Date | null> {
    const row = await this.knex("engine_cron_fires").where({ job_id: jobId }).max<{ last: Date | string | null }>("fired_at as last").first();
    return row?.last ? new Date(row.last) : null;
  }

  /** Forgets ticks older than `before` (the ledger only needs the latest per job). */
  async prune(before: Date): Promise<number> {
    return this.knex("engine_cron_fires").where("fired_at", "<", before).delete();
  }
}
