/**
 * The engine's leader lease: among several Hearth processes on one database, exactly one
 * at a time holds it and runs the automation engine. Each acquisition gets a larger
 * fencing token, so writes made under an old lease can be refused.
 */
export interface LeaderLease {
  /**
   * Takes the lease for `ttlMs` when nobody holds it (or the holder let it expire).
   * Answers the token, or who holds it now (null when nobody could be read).
   */
  tryAcquire(holder: string, ttlMs: number): Promise<{ token: number } | { holder: string | null }>;
  /**
   * Extends the lease held with `token` by `ttlMs`; false when another holder took it since
   * (the token moved on) or it was released. A lease that merely expired, with nobody taking
   * it, is still ours and is renewed.
   */
  renew(token: number, ttlMs: number): Promise<boolean>;
  /** Gives the lease up at once (graceful stop), so a standby need not wait for it to expire. */
  release(token: number): Promise<void>;
  /** Closes what the lease holds open (its connection). */
  close(): Promise<void>;
}

/** Which cron ticks have fired, so two leaders never fire the same tick. */
export interface CronFireLedger {
  /**
   * Records that job `jobId` fires its tick at `firedAt`, under the lease `token`. False when
   * the tick was already recorded or the token no longer holds the lease: then it must not run.
   */
  claim(jobId: string, firedAt: Date, token: number): Promise<boolean>;
  /** The latest recorded tick of `jobId`, or null. */
  lastFired(jobId: string): Promise<Date | null>;
}

/** The role of this process, for /readyz, /api/status and the web UI. */
export interface LeadershipStatus {
  /** "single": no lease (one process, no PostgreSQL); "leader" or "standby" otherwise. */
  readonly role: "single" | "leader" | "standby";
  /** This instance's name (INSTANCE_NAME). */
  readonly instance: string;
  /** Who holds the lease, as last seen; this instance when leader; null when unknown. */
  readonly leader: string | null;
  /** How long a takeover can take after the leader goes (lease TTL + renewal period), under a lease. */
  readonly takeoverMs?: number;
  /**
   * Under a lease, whether this leader knows its lease holds now. False for a moment after a
   * stall (until the database answers) or while renewals fail: fenced writes are refused then.
   */
  readonly leaseConfirmed?: boolean;
}

export const LEADER_LEASE = Symbol("LeaderLease");
export const CRON_FIRE_LEDGER = Symbol("CronFireLedger");
