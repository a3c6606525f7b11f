import type { ReminderSettings } from "../domain/inventory/reminder.js";

/** Expiry-reminder settings per household, and the record of what was sent. */
export interface ReminderRepository {
  /** null when the household never saved settings. */
  find(householdId: string): Promise<ReminderSettings | null>;
  /** Creates or replaces the settings; `lastSentOn` is kept as stored. */
  save(settings: Omit<ReminderSettings, "lastSentOn">): Promise<ReminderSettings>;
  listEnabled(): Promise<ReminderSettings[]>;
  /**
   * Records that today's reminder (`date`, local) is being sent, unless it already was: true
   * for exactly one caller per household and day, across processes.
   */
  claim(householdId: string, date: string): Promise<boolean>;
  /** Undoes a claim whose sending failed, so a later check tries again. */
  release(householdId: string, date: string, previous: string | null): Promise<void>;
}

export const REMINDER_REPOSITORY = Symbol("ReminderRepository");
