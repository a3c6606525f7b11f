import { type Clock, systemClock } from "../../ports/clock.js";
import type { CronFireLedger } from "../../ports/leader-lease.js";
import type { Logger } from "../../ports/logger.js";
import type { Scheduler } from "../../ports/scheduler.js";

export interface LeaderSchedulerOptions {
  /** The scheduler that keeps the time (CronScheduler). */
  inner: Scheduler;
  ledger: CronFireLedger;
  /** The fencing token while this process leads, else null. */
  token: () => number | null;
  logger: Logger;
  /** Missed ticks listed in the log per job at most. */
  missedLimit?: number;
  clock?: Clock;
}

/**
 * A scheduler for a process among several: a tick runs only after the ledger recorded it
 * under this process's live lease, so no tick runs twice, on two leaders or after a
 * failover. When a job is scheduled (a new leader loading its automations), the ticks it
 * missed since its last recorded one are logged, not replayed.
 */
export class LeaderScheduler implements Scheduler {
  constructor(private readonly options: LeaderSchedulerOptions) {}

  schedule(id: string, expression: string, callback: (firedAt: Date) => void): void {
    const scheduledAt = (this.options.clock ?? systemClock).now();
    this.options.inner.schedule(id, expression, (firedAt) => void this.fire(id, expression, firedAt, callback));
    void this.reportMissed(id, expression, scheduledAt);
  }

  remove(id: string): boolean {
    return this.options.inner.remove(id);
  }

  removeByPrefix(prefix: string): number {
    return this.options.inner.removeByPrefix(prefix);
  }

  stopAll(): void {
    this.options.inner.stopAll();
  }

  validate(expression: string): string | null {
    return this.options.inner.validate(expression);
  }

  private async fire(id: string, expression: string, firedAt: Date, callback: (firedAt: Date) => void): Promise<void> {
    const token = this.options.token();
    if (token === null) return;
    let claimed: boolean;
    try {
      claimed = await this.options.ledger.claim(id, firedAt, token);
    } catch (error) {
      this.options.logger.error("Could not record a cron tick; it does not run", {
        job: id,
        expression,
        firedAt,
        err: error,
      });
      return;
    }
    if (!claimed) {
      this.options.logger.warn("Cron tick already ran or the lease is lost; not running it again", {
        job: id,
        firedAt,
      });
      return;
    }
    try {
      callback(firedAt);
    } catch (error) {
      this.options.logger.error("Cron callback failed", { job: id, expression, err: error });
    }
  }

  private async reportMissed(id: string, expression: string, scheduledAt: Date): Promise<void> {
    if (!this.options.inner.ticksBetween) return;
    try {
      const last = await this.options.ledger.lastFired(id);
      if (!last) return;
      const limit = this.options.missedLimit ?? 20;
      const missed = this.options.inner.ticksBetween(expression, last, scheduledAt, limit + 1);
      if (missed.length === 0) return;
      this.options.logger.warn(`Cron ticks missed while no instance led the engine; they are not replayed`, {
        job: id,
        expression,
        missed: missed.slice(0, limit).map((tick) => tick.toISOString()),
        ...(missed.length > limit ? { more: true } : {}),
      });
    } catch (error) {
      this.options.logger.warn("Could not check for missed cron ticks", { job: id, err: error });
    }
  }
}
