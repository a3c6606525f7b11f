import type { ReminderSettings } from "../../domain/inventory/reminder.js";
import type { ReminderRepository } from "../../ports/reminder-repository.js";

/** Reminder settings in process memory. */
export class MemoryReminderRepository implements ReminderRepository {
  private readonly rows = new Map<string, ReminderSettings>();

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

  async claim(householdId: string, date: string): Promise<boolean> {
    const row = this.rows.get(householdId);
    if (!row || row.lastSentOn === date) return false;
    row.lastSentOn = date;
    return true;
  }

  async release(householdId: string, date: string, previous: string | null): Promise<void> {
    const row = this.rows.get(householdId);
    if (row?.lastSentOn === date) row.lastSentOn = previous;
  }

  /** Removes a deleted household's settings (the table's cascade). */
  deleteHousehold(householdId: string): void {
    this.rows.delete(householdId);
  }
}
