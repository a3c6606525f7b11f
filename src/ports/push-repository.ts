import type { MemberReminderSettings, PushSubscriptionRecord } from "../domain/inventory/push-reminder.js";

/** Members' push subscriptions (their devices) and their own reminder settings per household. */
export interface PushRepository {
  /**
   * Stores the subscription, or replaces the one with the same endpoint (moving it to
   * `userId`: the same browser signed in as someone else). Null, storing nothing, when the
   * user already has `limit` other subscriptions.
   */
  saveSubscription(subscription: PushSubscriptionRecord, limit: number): Promise<PushSubscriptionRecord | null>;
  /** The user's subscriptions, oldest first. */
  listSubscriptions(userId: string): Promise<PushSubscriptionRecord[]>;
  /** Removes the user's subscription with this endpoint; false when the user has none such. */
  removeSubscription(userId: string, endpoint: string): Promise<boolean>;
  /**
   * Removes the subscription the push service called gone (404/410), but only while it is still
   * the one that was sent to: a browser that subscribed again meanwhile keeps its new keys.
   */
  removeGone(subscription: Pick<PushSubscriptionRecord, "endpoint" | "p256dh" | "auth">): Promise<void>;

  /** null when the member never saved settings in the household. */
  findReminder(userId: string, householdId: string): Promise<MemberReminderSettings | null>;
  /** Creates or replaces the settings; `lastSentOn` is kept as stored. */
  saveReminder(settings: Omit<MemberReminderSettings, "lastSentOn">): Promise<MemberReminderSettings>;
  /** Enabled settings of users who are still members of the household and have a device. */
  listEnabledReminders(): Promise<MemberReminderSettings[]>;
  /**
   * Claims the member's reminder of local `date`: true for one caller at a time, across
   * processes; refused once the day is marked sent and while another claim of the day is younger
   * than `claimMs` (an older one was left by a crash and is taken over).
   */
  claimReminder(userId: string, householdId: string, date: string, now: Date, claimMs: number): Promise<boolean>;
  /** Records that the reminder of `date` went out, ending the claim. */
  markReminderSent(userId: string, householdId: string, date: string): Promise<void>;
  /** Gives a claim back after a failed send, so the next check tries again. */
  releaseReminder(userId: string, householdId: string, date: string): Promise<void>;
}

export const PUSH_REPOSITORY = Symbol("PushRepository");
