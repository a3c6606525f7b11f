import type { Logger } from "../../../ports/logger.js";
import type { Timer, TimerHandle } from "../../../ports/timer.js";
import type { SendDueReminders } from "./send-due-reminders.js";

/** Checks for due reminders (the household's, or the members' pushes) at start and then every `intervalMs`. */
export class ReminderSchedule {
  private handle: TimerHandle | null = null;
  private running: Promise<unknown> = Promise.resolve();
  private started = false;

  constructor(
    private readonly send: Pick<SendDueReminders, "execute">,
    private readonly timer: Timer,
    private readonly intervalMs: number,
    private readonly logger: Logger,
  ) {}

  start(): void {
    if (this.started) return;
    this.started = true;
    this.tick();
  }

  async stop(): Promise<void> {
    this.started = false;
    if (this.handle) this.timer.clearTimeout(this.handle);
    this.handle = null;
    await this.running;
  }

  /** Resolves when the check in progress (if any) is over (tests). */
  settled(): Promise<unknown> {
    return this.running;
  }

  private tick(): void {
    this.running = this.send.execute().catch((error: unknown) => {
      this.logger.error("Checking expiry reminders failed", { err: error });
    });
    void this.running.then(() => {
      if (this.started) this.handle = this.timer.setTimeout(() => this.tick(), this.intervalMs);
    });
  }
}
