import { DomainError } from "../shared/domain-error.js";
import { DEFAULT_REMINDER_DAYS_AHEAD, DEFAULT_REMINDER_TIME } from "./reminder.js";

/** The languages a push reminder is written in (the app's languages). */
export const PUSH_LANGUAGES = ["en", "de"] as const;
export type PushLanguage = (typeof PUSH_LANGUAGES)[number];

/**
 * One browser's Web Push subscription (RFC 8030 endpoint, RFC 8291 keys) of one member: a
 * device. The endpoint names exactly one browser profile, so it is the key: the same phone
 * signing in as someone else moves the subscription to them.
 */
export interface PushSubscriptionRecord {
  endpoint: string;
  userId: string;
  /** The browser's P-256 public key, base64url (uncompressed point, 65 bytes). */
  p256dh: string;
  /** The browser's 16-byte authentication secret, base64url. */
  auth: string;
  /** The language the app was in when it subscribed: reminders to this device are written in it. */
  language: PushLanguage;
  createdAt: Date;
  updatedAt: Date;
}

/** Devices one account may register; bounds the rows (and the pushes) any account can cause. */
export const MAX_PUSH_SUBSCRIPTIONS_PER_USER = 10;

/** A member's own expiry reminder in one household, pushed to each of the member's devices. */
export interface MemberReminderSettings {
  userId: string;
  householdId: string;
  enabled: boolean;
  /** Items expiring within this many days are listed (expired ones always are). */
  daysAhead: number;
  /** `HH:MM` in the household's time zone. */
  timeOfDay: string;
  /** The household's local date the last reminder went out, or null. */
  lastSentOn: string | null;
  updatedAt: Date;
}

/** The settings of a member who never saved any: off, with the household reminder's defaults. */
export function defaultMemberReminderSettings(userId: string, householdId: string, now: Date): MemberReminderSettings {
  return {
    userId,
    householdId,
    enabled: false,
    daysAhead: DEFAULT_REMINDER_DAYS_AHEAD,
    timeOfDay: DEFAULT_REMINDER_TIME,
    lastSentOn: null,
    updatedAt: now,
  };
}

/**
 * What a member's reminder of one household replaces: the same every day, so a push service
 * still holding yesterday's undelivered reminder (phone off) replaces it with today's, and a
 * repeat after a crash replaces the first attempt (the sender turns it into the Web Push
 * `Topic`, RFC 8030 section 5.4; the service worker uses it as the notification's tag).
 */
export function memberReminderKey(userId: string, householdId: string): string {
  return `hearth-reminder-${householdId}-${userId}`;
}

export class PushSubscriptionLimitError extends DomainError {
  readonly code = "PUSH_SUBSCRIPTION_LIMIT";
  constructor() {
    super(
      `An account can receive reminders on at most ${MAX_PUSH_SUBSCRIPTIONS_PER_USER} devices; turn them off on a device you no longer use first`,
    );
  }
}

export class PushSubscriptionNotFoundError extends DomainError {
  readonly code = "PUSH_SUBSCRIPTION_NOT_FOUND";
  constructor() {
    super("This account has no push subscription with that endpoint");
  }
}
