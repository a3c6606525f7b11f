import { memberReminderKey, type MemberReminderSettings } from "../../../domain/inventory/push-reminder.js";
import { isReminderDue, REMINDER_CLAIM_MS } from "../../../domain/inventory/reminder.js";
import { endOfLocalDay, localTime } from "../../../domain/shared/local-time.js";
import type { Clock } from "../../../ports/clock.js";
import type { HouseholdTimeZones } from "../../../ports/household-time-zones.js";
import type { ItemRepository } from "../../../ports/item-repository.js";
import type { Logger } from "../../../ports/logger.js";
import type { PushRepository } from "../../../ports/push-repository.js";
import type { PushSender } from "../../../ports/push-sender.js";
import { PUSH_LISTED, pushReminderText } from "./push-reminder-text.js";

/** A reminder the push service could not hand to a phone within a day is stale: dropped. */
const PUSH_TTL_SECONDS = 24 * 3600;

export interface SendDuePushRemindersDependencies {
  push: PushRepository;
  items: ItemRepository;
  sender: PushSender;
  clock: Clock;
  /** TZ; undefined: the system's zone. For households whose own zone is not known. */
  timeZone: string | undefined;
  timeZones: HouseholdTimeZones;
  logger: Logger;
}

/**
 * Sends each member's own expiry reminder by Web Push once their time has come in the household's
 * zone: at most one a day per member and household, listing the expired items and those expiring
 * within the member's days ahead, and none when there are no such items. The scheme is the
 * household reminder's (claim in the database, send, mark sent; a failed send gives the claim back,
 * a crash leaves a claim taken over after {@link REMINDER_CLAIM_MS}), so several processes on one
 * database send it once. The member counts as reminded once one of their devices has it: a device
 * whose push service fails that day is logged, not retried, so the others are not pushed again.
 * A device the push service calls gone (404/410) is forgotten.
 */
export class SendDuePushReminders {
  constructor(private readonly deps: SendDuePushRemindersDependencies) {}

  /** Returns the `userId/householdId` pairs a reminder went to. */
  async execute(): Promise<string[]> {
    const now = this.deps.clock.now();
    const sent: string[] = [];
    for (const settings of await this.deps.push.listEnabledReminders()) {
      const zone = (await this.deps.timeZones.timeZoneOf(settings.householdId)) ?? this.deps.timeZone;
      const local = localTime(now, zone);
      if (!isReminderDue(settings, local)) continue;
      if (await this.sendOne(settings, now, local.date, zone)) sent.push(`${settings.userId}/${settings.householdId}`);
    }
    return sent;
  }

  private async sendOne(
    settings: MemberReminderSettings,
    now: Date,
    today: string,
    zone: string | undefined,
  ): Promise<boolean> {
    const { userId, householdId } = settings;
    const before = endOfLocalDay(now, zone, settings.daysAhead);
    const { items, total } = await this.deps.items.list({
      householdId,
      expiresBefore: before,
      sort: "expiresAt",
      order: "asc",
      page: 1,
      limit: PUSH_LISTED,
    });
    if (total === 0) return false;
    const devices = await this.deps.push.listSubscriptions(userId);
    if (devices.length === 0) return false;
    if (!(await this.deps.push.claimReminder(userId, householdId, today, now, REMINDER_CLAIM_MS))) return false;
    const startOfToday = endOfLocalDay(now, zone, -1);
    // The app's list of what expires up to the same day, in this household.
    const url = `/?household=${encodeURIComponent(householdId)}&before=${before.toISOString().slice(0, 10)}&sort=expiresAt:asc`;
    const key = memberReminderKey(userId, householdId);
    let delivered = 0;
    let failed = 0;
    for (const device of devices) {
      try {
        const outcome = await this.deps.sender.send({
          subscription: device,
          notification: { ...pushReminderText(device.language, items, total, startOfToday), url, tag: key },
          replaceKey: key,
          ttlSeconds: PUSH_TTL_SECONDS,
        });
        if (outcome === "gone") {
          await this.deps.push.removeGone(device);
          this.deps.logger.info("Forgot a push subscription its push service no longer knows", { userId });
        } else delivered++;
      } catch (error) {
        failed++;
        this.deps.logger.warn("Could not push the expiry reminder to a device", { userId, householdId, err: error });
      }
    }
    if (delivered === 0 && failed > 0) {
      await this.deps.push.releaseReminder(userId, householdId, today);
      this.deps.logger.error("Could not push the expiry reminder; trying again at the next check", {
        userId,
        householdId,
      });
      return false;
    }
    // Sent (or every device was gone): a crash before this line pushes once more, replacing it.
    await this.deps.push.markReminderSent(userId, householdId, today);
    if (delivered > 0)
      this.deps.logger.info("Pushed the expiry reminder", { userId, householdId, items: total, devices: delivered });
    return delivered > 0;
  }
}
