import type { NotificationService } from "../../../domain/automation/notification.js";
import type { FreezerItemView } from "../../../domain/inventory/freezer-item.js";
import {
  isReminderDue,
  REMINDER_CLAIM_MS,
  type ReminderSettings,
  reminderKey,
} from "../../../domain/inventory/reminder.js";
import { endOfLocalDay, localTime } from "../../../domain/shared/local-time.js";
import type { HouseholdTimeZones } from "../../../ports/household-time-zones.js";
import type { Clock } from "../../../ports/clock.js";
import type { ItemRepository } from "../../../ports/item-repository.js";
import type { Logger } from "../../../ports/logger.js";
import type { ReminderRepository } from "../../../ports/reminder-repository.js";

/** Items named in one notification; the rest are counted. */
const LISTED = 15;

export interface SendDueRemindersDependencies {
  reminders: ReminderRepository;
  items: ItemRepository;
  /** Looked up at every check: the notifications service may be registered after start. */
  notifications: () => NotificationService | null;
  clock: Clock;
  /** TZ; undefined: the system's zone. Used for households whose own zone is not known. */
  timeZone: string | undefined;
  /** Each household's own time zone: its reminder time and its days are local to the family. */
  timeZones?: HouseholdTimeZones;
  logger: Logger;
}

/**
 * Sends each household's daily expiry reminder once its time has come: one notification
 * listing the expired items and those expiring within its days ahead, and none when there are
 * no such items. Delivery is at least once: the day is claimed in the database (so a second
 * process does not send it at the same time), sent, then marked sent. A failed send gives the
 * claim back for the next check; a crash between claim and mark leaves a claim that is taken
 * over once older than {@link REMINDER_CLAIM_MS}. Every attempt carries the same key
 * ({@link reminderKey}), so a repeat after a crash shows as the same notification.
 */
export class SendDueReminders {
  private warnedNoService = false;

  constructor(private readonly deps: SendDueRemindersDependencies) {}

  /** Returns the households a reminder went to. */
  async execute(): Promise<string[]> {
    const now = this.deps.clock.now();
    const sent: string[] = [];
    for (const settings of await this.deps.reminders.listEnabled()) {
      const zone = (await this.deps.timeZones?.timeZoneOf(settings.householdId)) ?? this.deps.timeZone;
      const local = localTime(now, zone);
      if (!isReminderDue(settings, local)) continue;
      if (await this.sendOne(settings, now, local.date, zone)) sent.push(settings.householdId);
    }
    return sent;
  }

  private async sendOne(
    settings: ReminderSettings,
    now: Date,
    today: string,
    zone: string | undefined,
  ): Promise<boolean> {
    // Expiry dates are calendar dates: "expired" means before the family's today, not before now.
    const startOfToday = endOfLocalDay(now, zone, -1);
    const { items, total } = await this.deps.items.list({
      householdId: settings.householdId,
      expiresBefore: endOfLocalDay(now, zone, settings.daysAhead),
      sort: "expiresAt",
      order: "asc",
      page: 1,
      limit: LISTED,
    });
    if (total === 0) return false;
    const service = this.deps.notifications();
    if (!service) {
      if (!this.warnedNoService)
        this.deps.logger.warn("Expiry reminders are due but no notifications service is registered");
      this.warnedNoService = true;
      return false;
    }
    if (!(await this.deps.reminders.claim(settings.householdId, today, now, REMINDER_CLAIM_MS))) return false;
    try {
      const result: unknown = await service.send({
        title: reminderTitle(items, total, startOfToday),
        message: reminderMessage(items, total, startOfToday),
        tags: ["hourglass_flowing_sand"],
        idempotencyKey: reminderKey(settings.householdId, today),
        ...(settings.channel ? { channel: settings.channel } : {}),
      });
      // Hearth's ntfy service reports a failed send as { ok: false } instead of throwing.
      if (typeof result === "object" && result !== null && (result as { ok?: unknown }).ok === false) {
        throw new Error(
          String((result as { error?: unknown }).error ?? "the notification service refused the message"),
        );
      }
    } catch (error) {
      await this.deps.reminders.release(settings.householdId, today);
      this.deps.logger.error("Could not send the expiry reminder; trying again at the next check", {
        householdId: settings.householdId,
        err: error,
      });
      return false;
    }
    // Sent: a crash before this line sends it once more (same key) after the claim lease.
    await this.deps.reminders.markSent(settings.householdId, today);
    this.deps.logger.info("Sent the expiry reminder", { householdId: settings.householdId, items: total });
    return true;
  }
}

/** Expired: its expiry day ended before the family's today began. */
function isExpired(item: FreezerItemView, startOfToday: Date): boolean {
  return item.expiresAt !== null && item.expiresAt.getTime() < startOfToday.getTime();
}

function reminderTitle(items: FreezerItemView[], total: number, startOfToday: Date): string {
  const expired = items.filter((item) => isExpired(item, startOfToday)).length;
  if (expired === total) return `${total} freezer item${total === 1 ? " has" : "s have"} expired`;
  return `${total} freezer item${total === 1 ? "" : "s"} to use soon`;
}

/** One line per item, soonest first: "Peas: expired on 21 Nov" / "Stew: expires on 27 Nov". */
export function reminderMessage(items: FreezerItemView[], total: number, startOfToday: Date): string {
  // Expiry dates are calendar dates stored at UTC midnight: shown in UTC they keep their day.
  const format = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });
  const lines = items.map((item) => {
    const on = format.format(item.expiresAt as Date);
    return isExpired(item, startOfToday)
      ? `${item.name} (${item.quantity}): expired on ${on}`
      : `${item.name} (${item.quantity}): expires on ${on}`;
  });
  if (total > items.length) lines.push(`and ${total - items.length} more`);
  return lines.join("\n");
}
