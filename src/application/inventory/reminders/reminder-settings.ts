import { defaultReminderSettings, type ReminderSettings } from "../../../domain/inventory/reminder.js";
import type { Clock } from "../../../ports/clock.js";
import type { ReminderRepository } from "../../../ports/reminder-repository.js";
import type { HouseholdAccess } from "../household-access.js";
import type { HouseholdInput } from "../inventory-ports.js";

/** A household's reminder settings: what it saved, or the defaults. */
export class GetReminderSettings {
  constructor(
    private readonly reminders: ReminderRepository,
    private readonly clock: Clock,
    private readonly access: HouseholdAccess,
  ) {}

  /** Any member may read them. */
  async execute(input: HouseholdInput): Promise<ReminderSettings> {
    await this.access.requireMember(input.householdId, input.userId);
    return (
      (await this.reminders.find(input.householdId)) ?? defaultReminderSettings(input.householdId, this.clock.now())
    );
  }
}

export interface UpdateReminderSettingsInput extends HouseholdInput {
  enabled?: boolean | undefined;
  daysAhead?: number | undefined;
  timeOfDay?: string | undefined;
  channel?: string | null | undefined;
}

/** Changes any of the settings (the owner's call); what is left out keeps its value. */
export class UpdateReminderSettings {
  constructor(
    private readonly reminders: ReminderRepository,
    private readonly clock: Clock,
    private readonly access: HouseholdAccess,
  ) {}

  async execute(input: UpdateReminderSettingsInput): Promise<ReminderSettings> {
    await this.access.requireOwner(input.householdId, input.userId);
    const now = this.clock.now();
    const current = (await this.reminders.find(input.householdId)) ?? defaultReminderSettings(input.householdId, now);
    return this.reminders.save({
      householdId: input.householdId,
      enabled: input.enabled ?? current.enabled,
      daysAhead: input.daysAhead ?? current.daysAhead,
      timeOfDay: input.timeOfDay ?? current.timeOfDay,
      channel: input.channel === undefined ? current.channel : input.channel,
      updatedAt: now,
    });
  }
}
