import type { ReminderSettings } from "../../domain/inventory/reminder.js";
import type { ReminderRepository } from "../../ports/reminder-repository.js";

/** Reminder settings in process memory. */
export class MemoryReminderRepository implements ReminderRepository {
  private readonly rows = new Map<string, ReminderSettings>();
  /** The day each household's reminder is being sent, and since when (ms). */
  private readonly claims = new Map<string, { date: string; at: number }>();

  async find(householdId: string): Promise<ReminderSettings | null> {
    const row = this.rows.get(householdId);
    return row ? { ...row } : null;
  }

  async save(settings: Omit<ReminderSettings, "lastSentOn">): Promise<ReminderSettings> {
    const row = { ...settings, lastSentOn: this.rows.get(settings.householdId)?.lastSentOn ?? null };
    this.rows.set(settings.householdId, row);
    return { ...row };
  }

  async listEnabled(): Promise<ReminderSettings[]> {
    return [...this.rows.values()].filter((row) => row.enabled).map((row) => ({ ...row }));
  }

  async claim(householdId: string, date: string, now: Date, claimMs: number): Promise<boolean> {
    const row = this.rows.get(householdId);
    if (!row || row.lastSentOn === date) return false;
    const claim = this.claims.get(householdId);
    if (claim?.date === date && claim.at >= now.getTime() - claimMs) return false;
    this.claims.set(householdId, { date, at: now.getTime() });
    return true;
  }

  async markSent(householdId: string, date: string): Promise<void> {
    const row = this.rows.get(householdId);
    if (row) row.lastSentOn = date;
    this.claims.delete(householdId);
  }

  async release(householdId: string, date: string): Promise<void> {
    if (this.claims.get(householdId)?.date === date) this.claims.delete(householdId);
  }

  /** Removes a deleted household's settings (the table's cascade). */
  deleteHousehold(householdId: string): void {
    this.rows.delete(householdId);
    this.claims.delete(householdId);
  }
}
