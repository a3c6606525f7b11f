import type { Knex } from "knex";
import type {
  MemberReminderSettings,
  PushLanguage,
  PushSubscriptionRecord,
} from "../../domain/inventory/push-reminder.js";
import type { PushRepository } from "../../ports/push-repository.js";
import { affectedRows, writeIntoHousehold } from "./knex-rows.js";

interface SubscriptionRow {
  endpoint: string;
  user_id: string;
  p256dh: string;
  auth: string;
  language: string;
  created_at: Date | string;
  updated_at: Date | string;
}

interface ReminderRow {
  user_id: string;
  household_id: string;
  enabled: boolean;
  days_ahead: number;
  time_of_day: string;
  last_sent_on: string | null;
  updated_at: Date | string;
}

const SUBSCRIPTION_COLUMNS = "endpoint, user_id, p256dh, auth, language, created_at, updated_at";
// `::text` keeps node-postgres from turning the date into a local-midnight Date.
const REMINDER_COLUMNS =
  "user_id, household_id, enabled, days_ahead, time_of_day, last_sent_on::text AS last_sent_on, updated_at";

const toDate = (value: Date | string) => (value instanceof Date ? value : new Date(value));

function toSubscription(row: SubscriptionRow): PushSubscriptionRecord {
  return {
    endpoint: row.endpoint,
    userId: row.user_id,
    p256dh: row.p256dh,
    auth: row.auth,
    language: row.language as PushLanguage,
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
  };
}

function toReminder(row: ReminderRow): MemberReminderSettings {
  return {
    userId: row.user_id,
    householdId: row.household_id,
    enabled: row.enabled,
    daysAhead: Number(row.days_ahead),
    timeOfDay: row.time_of_day,
    lastSentOn: row.last_sent_on === null ? null : String(row.last_sent_on),
    updatedAt: toDate(row.updated_at),
  };
}

/** Push subscriptions and members' push reminders on PostgreSQL or PGlite. */
export class KnexPushRepository implements PushRepository {
  constructor(private readonly knex: Knex) {}

  async saveSubscription(subscription: PushSubscriptionRecord, limit: number): Promise<PushSubscriptionRecord | null> {
    // One statement: the count and the insert see the same rows, so a burst of requests
    // cannot each find room (two at the very same moment may: the limit bounds, not counts).
    const result = await this.knex.raw<{ rows: SubscriptionRow[] }>(
      `INSERT INTO push_subscriptions (${SUBSCRIPTION_COLUMNS})
       SELECT ?, ?, ?, ?, ?, ?, ?
       WHERE (SELECT count(*) FROM push_subscriptions WHERE user_id = ? AND endpoint <> ?) < ?
       ON CONFLICT (endpoint) DO UPDATE SET user_id = EXCLUDED.user_id, p256dh = EXCLUDED.p256dh,
         auth = EXCLUDED.auth, language = EXCLUDED.language, updated_at = EXCLUDED.updated_at
       RETURNING ${SUBSCRIPTION_COLUMNS}`,
      [
        subscription.endpoint,
        subscription.userId,
        subscription.p256dh,
        subscription.auth,
        subscription.language,
        subscription.createdAt,
        subscription.updatedAt,
        subscription.userId,
        subscription.endpoint,
        limit,
      ],
    );
    return result.rows[0] ? toSubscription(result.rows[0]) : null;
  }

  async listSubscriptions(userId: string): Promise<PushSubscriptionRecord[]> {
    const rows: SubscriptionRow[] = await this.knex("push_subscriptions")
      .where({ user_id: userId })
      .orderBy([{ column: "created_at" }, { column: "endpoint" }])
      .select("*");
    return rows.map(toSubscription);
  }

  async removeSubscription(userId: string, endpoint: string): Promise<boolean> {
    return affectedRows(await this.knex("push_subscriptions").where({ user_id: userId, endpoint }).delete()) > 0;
  }

  async removeGone(subscription: Pick<PushSubscriptionRecord, "endpoint" | "p256dh" | "auth">): Promise<void> {
    await this.knex("push_subscriptions")
      .where({ endpoint: subscription.endpoint, p256dh: subscription.p256dh, auth: subscription.auth })
      .delete();
  }

  async findReminder(userId: string, householdId: string): Promise<MemberReminderSettings | null> {
    const result = await this.knex.raw<{ rows: ReminderRow[] }>(
      `SELECT ${REMINDER_COLUMNS} FROM member_reminders WHERE user_id = ? AND household_id = ?`,
      [userId, householdId],
    );
    return result.rows[0] ? toReminder(result.rows[0]) : null;
  }

  async saveReminder(settings: Omit<MemberReminderSettings, "lastSentOn">): Promise<MemberReminderSettings> {
    const result = await writeIntoHousehold(() =>
      this.knex.raw<{ rows: ReminderRow[] }>(
        `INSERT INTO member_reminders (user_id, household_id, enabled, days_ahead, time_of_day, updated_at)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (user_id, household_id) DO UPDATE SET enabled = EXCLUDED.enabled,
         days_ahead = EXCLUDED.days_ahead, time_of_day = EXCLUDED.time_of_day, updated_at = EXCLUDED.updated_at
       RETURNING ${REMINDER_COLUMNS}`,
        [
          settings.userId,
          settings.householdId,
          settings.enabled,
          settings.daysAhead,
          settings.timeOfDay,
          settings.updatedAt,
        ],
      ),
    );
    return toReminder(result.rows[0]!);
  }

  async listEnabledReminders(): Promise<MemberReminderSettings[]> {
    // A member who left the household (or deleted the account) keeps the row but gets nothing.
    const result = await this.knex.raw<{ rows: ReminderRow[] }>(
      `SELECT r.user_id, r.household_id, r.enabled, r.days_ahead, r.time_of_day,
         r.last_sent_on::text AS last_sent_on, r.updated_at
       FROM member_reminders r
       WHERE r.enabled
         AND EXISTS (SELECT 1 FROM memberships m WHERE m.user_id = r.user_id AND m.household_id = r.household_id)
         AND EXISTS (SELECT 1 FROM push_subscriptions s WHERE s.user_id = r.user_id)
       ORDER BY r.household_id, r.user_id`,
    );
    return result.rows.map(toReminder);
  }

  async claimReminder(userId: string, householdId: string, date: string, now: Date, claimMs: number): Promise<boolean> {
    // One conditional UPDATE: the row lock makes a second process wait, then see the claim.
    const result = await this.knex.raw<{ rows: unknown[] }>(
      `UPDATE member_reminders SET claimed_on = ?, claimed_at = ?
       WHERE user_id = ? AND household_id = ? AND (last_sent_on IS NULL OR last_sent_on <> ?)
         AND (claimed_on IS NULL OR claimed_on <> ? OR claimed_at < ?)
       RETURNING user_id`,
      [date, now, userId, householdId, date, date, new Date(now.getTime() - claimMs)],
    );
    return result.rows.length === 1;
  }

  async markReminderSent(userId: string, householdId: string, date: string): Promise<void> {
    await this.knex("member_reminders")
      .where({ user_id: userId, household_id: householdId })
      .update({ last_sent_on: date, claimed_on: null, claimed_at: null });
  }

  async releaseReminder(userId: string, householdId: string, date: string): Promise<void> {
    await this.knex("member_reminders")
      .where({ user_id: userId, household_id: householdId, claimed_on: date })
      .update({ claimed_on: null, claimed_at: null });
  }
}
