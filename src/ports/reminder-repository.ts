import type { ReminderSettings } from "../domain/inventory/reminder.js";

/** Expiry-reminder settings per household, and the record of what was sent. */
export interface ReminderRepository {
  /** null when the household never saved settings. */
  find(householdId: string): Promise<ReminderSettings | null>;
  /** Creates or replaces the settings; `lastSentOn` is kept as stored. */
  save(settings: Omit<ReminderSettings, "lastSentOn">): Promise<ReminderSettings>;
  listEnabled(): Promise<ReminderSettings[]>;
  /**
   * Claims the reminder of `date` (local) for sending, at `now`: true for one caller at a time
   * per household and day, across processes. Refused once the day is marked sent, and while
   * another claim of the day is younger than `claimMs` (a claim older than that was left by a
   * crash between claim and send, and is taken over).
   */
  claim(householdId: string, date: string, now: Date, claimMs: number): Promise<boolean>;
  /** Records that the reminder of `date` went out (`lastSentOn`), ending the claim. */
  markSent(householdId: string, date: string): Promise<void>;
  /** Gives back a claim whose sending failed, so the next check tries again. */
  release(householdId: string, date: string): Promise<void>;
}

export const REMINDER_REPOSITORY = Symbol("ReminderRepository");
