/** Cron scheduling as the engine uses it (the spec's CronScheduler). */
export interface Scheduler {
  /**
   * Runs `callback` at every time `expression` (5 or 6 fields, TZ timezone) names. Replaces
   * a job with the same id. Throws InvalidCronExpressionError for a bad expression.
   */
  schedule(id: string, expression: string, callback: (firedAt: Date) => void): void;
  remove(id: string): boolean;
  /** Removes every job whose id starts with `prefix` (e.g. all jobs of one automation). */
  removeByPrefix(prefix: string): number;
  stopAll(): void;
  /** Why `expression` is not a valid cron expression, or null. */
  validate(expression: string): string | null;
  /** The times `expression` names after `after` and before `before`, at most `limit` of them. */
  ticksBetween?(expression: string, after: Date, before: Date, limit: number): Date[];
}

export const SCHEDULER = Symbol("Scheduler");
