import { CronTime } from "cron";
import { DomainError } from "../../domain/shared/domain-error.js";
import { type Clock, systemClock } from "../../ports/clock.js";
import type { Logger } from "../../ports/logger.js";
import type { Scheduler } from "../../ports/scheduler.js";
import { systemTimer, type Timer, type TimerHandle } from "../../ports/timer.js";

/** Raised for a cron expression that is not 5 or 6 valid fields. */
export class InvalidCronExpressionError extends DomainError {
  readonly code = "INVALID_CRON_EXPRESSION";
}

export interface CronSchedulerOptions {
  /** IANA timezone the expressions are read in (TZ); the process's local zone when unset. */
  timeZone?: string | undefined;
  clock?: Clock;
  timer?: Timer;
  logger: Logger;
}

interface Job {
  expression: string;
  time: CronTime;
  callback: (firedAt: Date) => void;
  handle: TimerHandle | undefined;
  nextAt: Date;
}

/** setTimeout cannot wait longer than 2^31-1 ms; longer waits are re-armed in steps. */
const MAX_TIMER_DELAY_MS = 2_147_483_647;

/**
 * The spec's CronScheduler. Next fire times come from `cron`'s CronTime in the configured
 * timezone; waiting is done through the Timer port, so tests drive it with a fake clock.
 */
export class CronScheduler implements Scheduler {
  private readonly jobs = new Map<string, Job>();
  private readonly clock: Clock;
  private readonly timer: Timer;

  constructor(private readonly options: CronSchedulerOptions) {
    this.clock = options.clock ?? systemClock;
    this.timer = options.timer ?? systemTimer;
  }

  validate(expression: string): string | null {
    if (typeof expression !== "string" || expression.trim() === "") return "cron expression is empty";
    const fields = expression.trim().split(/\s+/);
    if (fields.length !== 5 && fields.length !== 6) {
      return `cron expression must have 5 or 6 fields, got ${fields.length}`;
    }
    const result = CronTime.validateCronExpression(expression.trim());
    if (!result.valid) return result.error?.message ?? "invalid cron expression";
    return this.neverFires(expression.trim());
  }

  /**
   * Valid fields can still describe no date at all (`0 0 30 2 *`, the 30th of February). cron
   * finds that out only when asked for the next date, and throws a "Something went wrong ...
   * help debug" text meant for its own issue tracker; the author gets what to check instead.
   */
  private neverFires(expression: string): string | null {
    try {
      new CronTime(expression, this.options.timeZone).getNextDateFrom(this.clock.now(), this.options.timeZone);
      return null;
    } catch (error) {
      this.options.logger.debug("cron found no next date", { expression, err: error });
      return "no date in the next 8 years matches it (does the day of the month exist in that month?)";
    }
  }

  schedule(id: string, expression: string, callback: (firedAt: Date) => void): void {
    const problem = this.validate(expression);
    if (problem) throw new InvalidCronExpressionError(`Invalid cron expression "${expression}": ${problem}`);
    this.remove(id);
    const time = this.options.timeZone
      ? new CronTime(expression.trim(), this.options.timeZone)
      : new CronTime(expression.trim());
    const job: Job = { expression, time, callback, handle: undefined, nextAt: this.clock.now() };
    this.jobs.set(id, job);
    this.arm(id, job, this.clock.now());
  }

  remove(id: string): boolean {
    const job = this.jobs.get(id);
    if (!job) return false;
    if (job.handle) this.timer.clearTimeout(job.handle);
    this.jobs.delete(id);
    return true;
  }

  removeByPrefix(prefix: string): number {
    let removed = 0;
    for (const id of [...this.jobs.keys()]) {
      if (id.startsWith(prefix) && this.remove(id)) removed++;
    }
    return removed;
  }

  stopAll(): void {
    for (const id of [...this.jobs.keys()]) this.remove(id);
  }

  ticksBetween(expression: string, after: Date, before: Date, limit: number): Date[] {
    const time = this.options.timeZone
      ? new CronTime(expression.trim(), this.options.timeZone)
      : new CronTime(expression.trim());
    const ticks: Date[] = [];
    let from = after;
    while (ticks.length < limit) {
      const next = time.getNextDateFrom(from, this.options.timeZone).toJSDate();
      if (next.getTime() >= before.getTime()) break;
      ticks.push(next);
      from = next;
    }
    return ticks;
  }

  /** When the job `id` fires next, or null. */
  nextRun(id: string): Date | null {
    return this.jobs.get(id)?.nextAt ?? null;
  }

  get size(): number {
    return this.jobs.size;
  }

  private arm(id: string, job: Job, from: Date): void {
    job.nextAt = job.time.getNextDateFrom(from, this.options.timeZone).toJSDate();
    this.wait(id, job);
  }

  private wait(id: string, job: Job): void {
    const delay = Math.max(0, job.nextAt.getTime() - this.clock.now().getTime());
    job.handle = this.timer.setTimeout(() => this.wake(id, job), Math.min(delay, MAX_TIMER_DELAY_MS));
  }

  private wake(id: string, job: Job): void {
    if (this.jobs.get(id) !== job) return;
    const now = this.clock.now();
    // Timers can fire a little early; only run once the planned time is really reached.
    if (now.getTime() < job.nextAt.getTime()) {
      this.wait(id, job);
      return;
    }
    const firedAt = job.nextAt;
    // Arm the next run before the callback, so a slow or failing callback cannot stop the schedule.
    this.arm(id, job, now.getTime() > firedAt.getTime() ? now : firedAt);
    try {
      job.callback(firedAt);
    } catch (error) {
      this.options.logger.error("Cron callback failed", { job: id, expression: job.expression, err: error });
    }
  }
}
