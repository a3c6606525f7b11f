import pg from "pg";
import type { Logger } from "../../ports/logger.js";
import type { LeaderLease } from "../../ports/leader-lease.js";

export interface PostgresLeaderLeaseOptions {
  databaseUrl: string;
  /** Longest a lease query may take before it counts as failed (a hung connection). */
  queryTimeoutMs: number;
  logger: Logger;
  /** Which lease (one engine per database by default). */
  name?: string;
}

/**
 * The lease as one row of `engine_leases`, its expiry on the database's clock so processes
 * need not agree on time. It talks over its own connection, not the inventory's pool: a
 * pool saturated by API requests must not make the leader miss its renewals.
 */
export class PostgresLeaderLease implements LeaderLease {
  private client: pg.Client | null = null;
  private connecting: Promise<pg.Client> | null = null;
  private readonly name: string;

  constructor(private readonly options: PostgresLeaderLeaseOptions) {
    this.name = options.name ?? "engine";
  }

  async tryAcquire(holder: string, ttlMs: number): Promise<{ token: number } | { holder: string | null }> {
    // One statement: insert the first lease, or take over one whose expiry has passed,
    // raising the fencing token; a live lease of someone else is left alone (no row back).
    const taken = await this.query<{ token: string | number }>(
      `INSERT INTO engine_leases (name, holder, token, acquired_at, expires_at)
       VALUES ($1, $2, 1, now(), now() + $3 * interval '1 millisecond')
       ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, token = engine_leases.token + 1,
         acquired_at = now(), expires_at = excluded.expires_at
       WHERE engine_leases.expires_at < now()
       RETURNING token`,
      [this.name, holder, ttlMs],
    );
    const row = taken.rows[0];
    if (row) return { token: Number(row.token) };
    const current = await this.query<{ holder: string }>("SELECT holder FROM engine_leases WHERE name = $1", [
      this.name,
    ]);
    return { holder: current.rows[0]?.holder ?? null };
  }

  async renew(token: number, ttlMs: number): Promise<boolean> {
    // The token alone says whether the lease is still ours: every takeover raises it. A lease
    // that expired while its holder stalled (GC, a loaded board) and that nobody took is
    // renewed, so a lone leader never stops for a pause. A released lease (expiry -infinity)
    // is not: the holder gave it up on purpose.
    const renewed = await this.query(
      `UPDATE engine_leases SET expires_at = now() + $3 * interval '1 millisecond'
       WHERE name = $1 AND token = $2 AND expires_at > '-infinity'::timestamptz`,
      [this.name, token, ttlMs],
    );
    return renewed.rowCount === 1;
  }

  async release(token: number): Promise<void> {
    await this.query("UPDATE engine_leases SET expires_at = '-infinity'::timestamptz WHERE name = $1 AND token = $2", [
      this.name,
      token,
    ]);
  }

  async close(): Promise<void> {
    const client = this.client ?? (await this.connecting?.catch(() => null)) ?? null;
    this.client = null;
    this.connecting = null;
    await client?.end().catch(() => undefined);
  }

  private async query<Row extends pg.QueryResultRow = pg.QueryResultRow>(
    text: string,
    values: unknown[],
  ): Promise<pg.QueryResult<Row>> {
    const client = await this.connection();
    try {
      return await client.query<Row>(text, values);
    } catch (error) {
      // A timed-out or broken connection is dropped; the next call opens a fresh one.
      this.drop(client);
      throw error;
    }
  }

  private connection(): Promise<pg.Client> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= (async () => {
      const client = new pg.Client({
        connectionString: this.options.databaseUrl,
        connectionTimeoutMillis: this.options.queryTimeoutMs,
        query_timeout: this.options.queryTimeoutMs,
        application_name: "hearth-leader-lease",
      });
      client.on("error", (error: Error) => {
        this.options.logger.warn("Leader lease connection failed", { err: error });
        this.drop(client);
      });
      try {
        await client.connect();
      } catch (error) {
        await client.end().catch(() => undefined);
        throw error;
      } finally {
        this.connecting = null;
      }
      this.client = client;
      return client;
    })();
    return this.connecting;
  }

  private drop(client: pg.Client): void {
    if (this.client === client) this.client = null;
    client.end().catch(() => undefined);
  }
}
