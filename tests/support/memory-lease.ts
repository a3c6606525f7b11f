import type { CronFireLedger, LeaderLease } from "../../src/ports/leader-lease.js";
import type { FakeTime } from "./engine-fakes.js";

/** The lease row as the database keeps it, on the same fake time as the processes. */
export class MemoryLease implements LeaderLease {
  holder: string | null = null;
  token = 0;
  expiresAt = 0;
  /** When set, renewals never answer (a hung connection). */
  hang = false;
  failAcquire = false;
  /** When set, renewals fail at once (the database refuses or cannot be reached). */
  failRenew = false;
  released: number[] = [];

  constructor(private readonly time: FakeTime) {}

  private now(): number {
    return this.time.now().getTime();
  }

  async tryAcquire(holder: string, ttlMs: number): Promise<{ token: number } | { holder: string | null }> {
    if (this.failAcquire) throw new Error("connection refused");
    if (this.holder !== null && this.expiresAt >= this.now()) return { holder: this.holder };
    this.holder = holder;
    this.token += 1;
    this.expiresAt = this.now() + ttlMs;
    return { token: this.token };
  }

  renew(token: number, ttlMs: number): Promise<boolean> {
    if (this.hang) return new Promise(() => undefined);
    if (this.failRenew) return Promise.reject(new Error("connection refused"));
    // As on PostgreSQL: only a takeover (a new token) or a release ends the lease for its holder.
    if (token !== this.token || this.released.includes(token)) return Promise.resolve(false);
    this.expiresAt = this.now() + ttlMs;
    return Promise.resolve(true);
  }

  async release(token: number): Promise<void> {
    this.released.push(token);
    if (token === this.token) this.expiresAt = this.now() - 1;
  }

  async close(): Promise<void> {}
}

/** The cron ledger table: one row per job and tick; a claim under a stale token is refused. */
export class MemoryLedger implements CronFireLedger {
  readonly fired = new Map<string, Date[]>();

  constructor(private readonly lease?: MemoryLease) {}

  async claim(jobId: string, firedAt: Date, token: number): Promise<boolean> {
    if (this.lease && token !== this.lease.token) return false;
    const ticks = this.fired.get(jobId) ?? [];
    if (ticks.some((tick) => tick.getTime() === firedAt.getTime())) return false;
    this.fired.set(jobId, [...ticks, firedAt]);
    return true;
  }

  async lastFired(jobId: string): Promise<Date | null> {
    return this.fired.get(jobId)?.at(-1) ?? null;
  }
}
