import type { Knex } from "knex";
import { writeIntoHousehold } from "./knex-rows.js";
import type { ReminderSettings } from "../../domain/inventory/reminder.js";
import type { ReminderRepository } from "../../ports/reminder-repository.js";

interface ReminderRow {
  household_id: string;
  enabled: boolean;
  days_ahead: number;
  time_of_day: string;
  channel: string | null;
  last_sent_on: string | Date | null;
  updated_at: Date | string;
}

// The date column comes back as text: `last_sent_on::text` avoids node-postgres turning it into a local-midnight Date.
const COLUMNS =
  "household_id, enabled, days_ahead, time_of_day, channel, last_sent_on::text AS last_sent_on, updated_at";

function toSettings(row: ReminderRow): ReminderSettings {
  return {
    householdId: row.household_id,
    enabled: row.enabled,
    daysAhead: Number(row.days_ahead),
    timeOfDay: row.time_of_day,
    channel: row.channel,
    lastSentOn: row.last_sent_on === null ? null : String(row.last_sent_on),
    updatedAt: row.updated_at instanceof Date ? row.updated_at : new Date(row.updated_at),
  };
}

/** Reminder settings on PostgreSQL or PGlite. */
export class KnexReminderRepository implements ReminderRepository {
  constructor(private readonly knex: Knex) {}

  async find(householdId: string): Promise<ReminderSettings | null> {
    const result = await this.knex.raw<{ rows: ReminderRow[] }>(
      `SELECT ${COLUMNS} FROM household_reminders WHERE household_id = ?`,
      [householdId],
    );
    return result.rows[0] ? toSettings(result.rows[0]) : null;
  }

  async save(settings: Omit<ReminderSettings, "lastSentOn">): Promise<ReminderSettings> {
    const result = await writeIntoHousehold(() =>
      this.knex.raw<{ rows: ReminderRow[] }>(
        `INSERT INTO household_reminders (household_id, enabled, days_ahead, time_of_day, channel, updated_at)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (household_id) DO UPDATE SET enabled = EXCLUDED.enabled, days_ahead = EXCLUDED.days_ahead,
         time_of_day = EXCLUDED.time_of_day, channel = EXCLUDED.channel, updated_at = EXCLUDED.updated_at
       RETURNING ${COLUMNS}`,
        [
          settings.householdId,
          settings.enabled,
          settings.daysAhead,
          settings.timeOfDay,
          settings.channel,
          settings.updatedAt,
        ],
      ),
    );
    return toSettings(result.rows[0]!);
  }

  async listEnabled(): Promise<ReminderSettings[]> {
    const result = await this.knex.raw<{ rows: ReminderRow[] }>(
      `SELECT ${COLUMNS} FROM household_reminders WHERE enabled ORDER BY household_id`,
    );
    return result.rows.map(toSettings);
  }

  async claim(householdId: string, date: string, now: Date, claimMs: number): Promise<boolean> {
    // One conditional UPDATE: the row lock makes a second process wait, then see the claim.
    const result = await this.knex.raw<{ rows: unknown[] }>(
      `UPDATE household_reminders SET claimed_on = ?, claimed_at = ?
       WHERE household_id = ? AND (last_sent_on IS NULL OR last_sent_on <> ?)
         AND (claimed_on IS NULL OR claimed_on <> ? OR claimed_at < ?)
       RETURNING household_id`,
      [date, now, householdId, date, date, new Date(now.getTime() - claimMs)],
    );
    return result.rows.length === 1;
  }

  async markSent(householdId: string, date: string): Promise<void> {
    await this.knex("household_reminders")
      .where({ household_id: householdId })
      .update({ last_sent_on: date, claimed_on: null, claimed_at: null });
  }

  async release(householdId: string, date: string): Promise<void> {
    await this.knex("household_reminders")
      .where({ household_id: householdId, claimed_on: date })
      .update({ claimed_on: null, claimed_at: null });
  }
}
