import type { Knex } from "knex";
import type { CronFireLedger } from "../../ports/leader-lease.js";

const PRUNE_EVERY_CLAIMS = 500;
const KEEP_MS = 7 * 86_400_000;

/**
 * Cron ticks recorded in `engine_cron_fires`. A claim inserts the tick only while the given
 * token still holds a live lease: a leader that lost its lease without noticing yet cannot
 * fire, and the primary key keeps a tick from being claimed twice.
 */
export class KnexCronFireLedger implements CronFireLedger {
  private claims = 0;

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
    const claimed = result.rows.length === 1;
    // Only each job's latest tick matters (missed-tick reports); a per-second job would
    // otherwise add 86 400 rows a day. Old rows go now and then, off the tick's path.
    this.claims += 1;
    if (claimed && this.claims % PRUNE_EVERY_CLAIMS === 0) {
      void this.prune(new Date(firedAt.getTime() - KEEP_MS)).catch(() => undefined);
    }
    return claimed;
  }

  async lastFired(jobId: string): Promise<Date | null> {
    const row = await this.knex("engine_cron_fires")
      .where({ job_id: jobId })
      .max<{ last: Date | string | null }>("fired_at as last")
      .first();
    return row?.last ? new Date(row.last) : null;
  }

  /** Forgets ticks older than `before`, except each job's latest (the missed-tick report needs it). */
  async prune(before: Date): Promise<number> {
    const result = await this.knex.raw<{ rowCount: number | null }>(
      `DELETE FROM engine_cron_fires f WHERE f.fired_at < ?
         AND f.fired_at < (SELECT max(l.fired_at) FROM engine_cron_fires l WHERE l.job_id = f.job_id)`,
      [before],
    );
    return result.rowCount ?? 0;
  }
}
