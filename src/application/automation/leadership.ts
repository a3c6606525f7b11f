import type { LeaderLease, LeadershipStatus } from "../../ports/leader-lease.js";
import type { Logger } from "../../ports/logger.js";
import { systemTimer, type Timer, type TimerHandle, withinTime } from "../../ports/timer.js";

export interface LeadershipOptions {
  lease: LeaderLease;
  /** This process's name, shown to the others ("standby, leader is <instance>"). */
  instance: string;
  /** How long a lease lives without renewal. */
  ttlMs: number;
  /** How often the leader renews and a standby tries to take over. */
  renewMs: number;
  logger: Logger;
  /** Runs when this process becomes leader (load state, start automations). */
  onPromote(token: number): Promise<void>;
  /** Runs when it stops leading (stop automations); must not write under the old lease. */
  onDemote(): Promise<void>;
  /** Runs after each renewal that extended the lease: what waited for it may go on. */
  onRenewed?(): void;
  timer?: Timer;
  /** Monotonic milliseconds; performance.now() by default. */
  now?: () => number;
}

/**
 * Holds (or waits for) the engine lease and turns it into promote/demote calls. The leader
 * counts its lease from the moment it *sent* the last successful renewal, on its own clock,
 * and gives up `renewMs` before that runs out; the database counts from when it received the
 * renewal. So the old leader has stopped its automations before the database lets anyone
 * else take over, even when its renewals hang instead of failing.
 *
 * A process that was not running at all (a GC pause, a board under load) finds its lease
 * run out when it wakes, without having been able to renew it. Late is not lost: unless the
 * database refused its last renewal, it stops acting under the lease (no fenced write, no
 * cron tick) and asks the database first. When the lease still carries its token, nobody
 * took it over in the meantime, so it renews and goes on with nothing stopped; only when
 * another instance holds it (or the database does not answer within half a renewal period)
 * does it step down.
 */
export class Leadership implements LeadershipStatus {
  private token: number | null = null;
  private leaderName: string | null = null;
  private validUntil = 0;
  private loop: TimerHandle | undefined;
  private watchdog: TimerHandle | undefined;
  /** When the watchdog is due (monotonic ms), to tell how late a stalled process woke. */
  private watchdogDue = 0;
  /** The last renewal failed outright (the database refused or could not be reached). */
  private lastRenewalFailed = false;
  /** Set while a late leader asks the database whether its lease is still its own. */
  private confirming = false;
  private running = false;
  private transition: Promise<void> = Promise.resolve();
  private readonly timer: Timer;
  private readonly now: () => number;

  constructor(private readonly options: LeadershipOptions) {
    if (options.renewMs * 2 > options.ttlMs)
      throw new TypeError("Leadership: the lease must live at least two renewal periods");
    this.timer = options.timer ?? systemTimer;
    this.now = options.now ?? (() => performance.now());
  }

  get role(): "leader" | "standby" {
    return this.token === null ? "standby" : "leader";
  }

  get instance(): string {
    return this.options.instance;
  }

  get leader(): string | null {
    return this.token === null ? this.leaderName : this.options.instance;
  }

  get leaseConfirmed(): boolean {
    return this.currentToken() !== null;
  }

  get takeoverMs(): number {
    return this.options.ttlMs + this.options.renewMs;
  }

  /** The fencing token while this process leads, else null (what fenced writes use). */
  currentToken(): number | null {
    return this.token !== null && this.now() < this.validUntil ? this.token : null;
  }

  /** Starts competing for the lease; resolves after the first attempt (and promotion, if won). */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    await this.step();
    await this.transition;
  }

  /** Stops competing: demotes (stopping automations) and releases the lease for a standby. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    if (this.loop) this.timer.clearTimeout(this.loop);
    this.loop = undefined;
    await this.transition;
    const token = this.token;
    if (token === null) return;
    // A graceful stop: automations stop and the state is saved while the lease still fences
    // the writes (they are refused once it runs out), then the lease goes to a standby at once.
    if (this.watchdog) this.timer.clearTimeout(this.watchdog);
    this.watchdog = undefined;
    try {
      await this.options.onDemote();
    } catch (error) {
      this.options.logger.error("Stopping automations failed", { err: error });
    }
    this.token = null;
    this.leaderName = null;
    await this.options.lease.release(token).catch((error: unknown) =>
      this.options.logger.warn("Releasing the engine lease failed; a standby takes over when it expires", {
        err: error,
      }),
    );
    this.options.logger.info("Released the engine lease");
  }

  private schedule(): void {
    if (!this.running) return;
    this.loop = this.timer.setTimeout(() => {
      this.loop = undefined;
      void this.step();
    }, this.options.renewMs);
  }

  private async step(): Promise<void> {
    try {
      if (this.token === null) await this.tryTakeOver();
      else await this.renew(this.token);
    } finally {
      this.schedule();
    }
  }

  private async tryTakeOver(): Promise<void> {
    const sentAt = this.now();
    let answer: Awaited<ReturnType<LeaderLease["tryAcquire"]>>;
    try {
      answer = await this.options.lease.tryAcquire(this.options.instance, this.options.ttlMs);
    } catch (error) {
      this.options.logger.warn("Could not reach the engine lease; staying standby", { err: error });
      return;
    }
    if (!("token" in answer)) {
      if (answer.holder !== this.leaderName)
        this.options.logger.info(`Standby; the engine leader is ${answer.holder ?? "unknown"}`);
      this.leaderName = answer.holder;
      return;
    }
    if (!this.running) {
      await this.options.lease.release(answer.token).catch(() => undefined);
      return;
    }
    this.token = answer.token;
    this.extend(sentAt);
    this.leaderName = this.options.instance;
    this.options.logger.info("Took the engine lease; starting automations", { token: answer.token });
    this.transition = this.options.onPromote(answer.token).catch((error: unknown) => {
      this.options.logger.error("Starting as leader failed; giving the lease up", { err: error });
      void this.demote("promotion failed");
    });
    // Not awaited: renewals go on while automations load.
  }

  private async renew(token: number): Promise<void> {
    const sentAt = this.now();
    let renewed: boolean;
    try {
      renewed = await this.options.lease.renew(token, this.options.ttlMs);
    } catch (error) {
      // The watchdog demotes once the lease runs out; one failed renewal is not yet a loss.
      this.lastRenewalFailed = true;
      this.options.logger.warn("Renewing the engine lease failed", { err: error });
      return;
    }
    this.lastRenewalFailed = false;
    if (this.token !== token || !this.running) return;
    if (renewed) this.extend(sentAt);
    else await this.demote("another instance holds the lease");
  }

  /** Our lease counts from `sentAt`; we stop one renewal period before it ends. */
  private extend(sentAt: number): void {
    this.validUntil = sentAt + this.options.ttlMs - this.options.renewMs;
    this.armWatchdog();
    this.options.onRenewed?.();
  }

  private armWatchdog(): void {
    if (this.watchdog) this.timer.clearTimeout(this.watchdog);
    const delay = Math.max(0, this.validUntil - this.now());
    this.watchdogDue = this.now() + delay;
    this.watchdog = this.timer.setTimeout(() => {
      this.watchdog = undefined;
      if (this.token === null || this.confirming) return;
      const now = this.now();
      if (now < this.validUntil) {
        this.armWatchdog();
        return;
      }
      // The database said no to the last renewal (refused, unreachable): it cannot vouch for
      // the lease either; stop now, a renewal period before anyone else may take over.
      if (this.lastRenewalFailed) {
        void this.demote("the lease could not be renewed in time");
        return;
      }
      // Otherwise the renewal is merely late (a stalled or busy process, a renewal still on its
      // way): ask the database before stopping anything.
      void this.confirmLateLease(this.token, now - this.watchdogDue);
    }, delay);
  }

  /** How long a late leader waits for the database to confirm its lease before stepping down. */
  private get confirmMs(): number {
    return this.options.renewMs / 2;
  }

  /**
   * The lease ran out on this process's clock with no renewal refused: ask the database (a
   * renewal under the same token) before stopping anything. Meanwhile currentToken() is null,
   * so nothing fenced happens. An answer that does not come within half a renewal period
   * (renewals that hang) counts as lost, still half a period before anyone may take over.
   */
  private async confirmLateLease(token: number, lateMs: number): Promise<void> {
    this.confirming = true;
    const sentAt = this.now();
    let answer: "ours" | "taken" | "no answer";
    try {
      const renewal = this.options.lease.renew(token, this.options.ttlMs).then(
        (renewed): "ours" | "taken" => (renewed ? "ours" : "taken"),
        (error: unknown): "no answer" => {
          this.options.logger.warn("Renewing the late engine lease failed", { err: error });
          return "no answer";
        },
      );
      // A database that does not answer soon cannot vouch for the lease: step down as before.
      answer = await withinTime(renewal, this.confirmMs, () => "no answer" as const, this.timer);
    } finally {
      this.confirming = false;
    }
    if (this.token !== token || !this.running) return;
    if (answer === "ours") {
      this.lastRenewalFailed = false;
      this.options.logger.warn(
        `The engine lease was renewed ${Math.round(lateMs)} ms after it ran out on this process's clock (a stall); nobody took it over, so this instance stays leader`,
        { token },
      );
      this.extend(sentAt);
    } else if (answer === "taken") {
      await this.demote("another instance took the lease while this process was late renewing it");
    } else {
      await this.demote("the lease could not be renewed in time");
    }
  }

  private async demote(reason: string): Promise<void> {
    if (this.token === null) return;
    this.token = null;
    this.leaderName = null;
    if (this.watchdog) this.timer.clearTimeout(this.watchdog);
    this.watchdog = undefined;
    this.options.logger.warn(`No longer the engine leader (${reason}); stopping automations`);
    const previous = this.transition;
    this.transition = previous
      .then(() => this.options.onDemote())
      .catch((error: unknown) => {
        this.options.logger.error("Stopping automations after losing the lease failed", { err: error });
      });
    await this.transition;
  }
}
