import { defaultMemberReminderSettings, type MemberReminderSettings } from "../../../domain/inventory/push-reminder.js";
import type { Clock } from "../../../ports/clock.js";
import type { PushRepository } from "../../../ports/push-repository.js";
import { HouseholdUseCase } from "../household-access.js";
import type { HouseholdInput } from "../inventory-ports.js";

export interface MemberReminderPorts {
  push: PushRepository;
  clock: Clock;
}

/** The caller's own push reminder in a household: what they saved, or the defaults (off). */
export class GetMemberReminder extends HouseholdUseCase<MemberReminderPorts> {
  async execute(input: HouseholdInput): Promise<MemberReminderSettings> {
    await this.access.requireMember(input.householdId, input.userId);
    return (
      (await this.ports.push.findReminder(input.userId, input.householdId)) ??
      defaultMemberReminderSettings(input.userId, input.householdId, this.ports.clock.now())
    );
  }
}

export interface UpdateMemberReminderInput extends HouseholdInput {
  enabled?: boolean | undefined;
  daysAhead?: number | undefined;
  timeOfDay?: string | undefined;
}

/** Changes the caller's own push reminder (any member); what is left out keeps its value. */
export class UpdateMemberReminder extends HouseholdUseCase<MemberReminderPorts> {
  async execute(input: UpdateMemberReminderInput): Promise<MemberReminderSettings> {
    await this.access.requireMember(input.householdId, input.userId);
    const now = this.ports.clock.now();
    const current =
      (await this.ports.push.findReminder(input.userId, input.householdId)) ??
      defaultMemberReminderSettings(input.userId, input.householdId, now);
    return this.ports.push.saveReminder({
      userId: input.userId,
      householdId: input.householdId,
      enabled: input.enabled ?? current.enabled,
      daysAhead: input.daysAhead ?? current.daysAhead,
      timeOfDay: input.timeOfDay ?? current.timeOfDay,
      updatedAt: now,
    });
  }
}
