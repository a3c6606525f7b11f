import { defaultReminderSettings, type ReminderSettings } from "../../../domain/inventory/reminder.js";
import type { ReminderRepository } from "../../../ports/reminder-repository.js";
import { HouseholdUseCase } from "../household-access.js";
import type { HouseholdInput, InventoryPorts } from "../inventory-ports.js";

/** What the reminder settings use cases read and write. */
export type ReminderPorts = { reminders: ReminderRepository } & Pick<InventoryPorts, "clock">;

/** A household's reminder settings: what it saved, or the defaults. */
export class GetReminderSettings extends HouseholdUseCase<ReminderPorts> {
  /** Any member may read them. */
  async execute(input: HouseholdInput): Promise<ReminderSettings> {
    await this.access.requireMember(input.householdId, input.userId);
    return (
      (await this.ports.reminders.find(input.householdId)) ??
      defaultReminderSettings(input.householdId, this.ports.clock.now())
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
export class UpdateReminderSettings extends HouseholdUseCase<ReminderPorts> {
  async execute(input: UpdateReminderSettingsInput): Promise<ReminderSettings> {
    await this.access.requireOwner(input.householdId, input.userId);
    const now = this.ports.clock.now();
    const current =
      (await this.ports.reminders.find(input.householdId)) ?? defaultReminderSettings(input.householdId, now);
    return this.ports.reminders.save({
      householdId: input.householdId,
      enabled: input.enabled ?? current.enabled,
      daysAhead: input.daysAhead ?? current.daysAhead,
      timeOfDay: input.timeOfDay ?? current.timeOfDay,
      channel: input.channel === undefined ? current.channel : input.channel,
      updatedAt: now,
    });
  }
}
