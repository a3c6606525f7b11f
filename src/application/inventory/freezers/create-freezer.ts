import { householdEvents } from "../household-events.js";
import { HouseholdUseCase } from "../household-access.js";
import { type FreezerView, viewFreezer } from "./freezer-views.js";
import type { HouseholdInput, InventoryPorts } from "../inventory-ports.js";

export interface CreateFreezerInput extends HouseholdInput {
  name: string;
  description?: string | null | undefined;
}

export class CreateFreezer extends HouseholdUseCase<Pick<InventoryPorts, "freezers" | "ids" | "clock">> {
  async execute(input: CreateFreezerInput): Promise<FreezerView> {
    await this.access.requireMember(input.householdId, input.userId);
    const now = this.ports.clock.now();
    // A new freezer goes last, after the highest position in use (two adding at once may tie;
    // the creation time then orders them).
    const existing = await this.ports.freezers.listFreezers(input.householdId);
    const position = existing.reduce((highest, freezer) => Math.max(highest, freezer.position + 1), 0);
    const freezer = {
      id: this.ports.ids.next(),
      householdId: input.householdId,
      name: input.name.trim(),
      description: input.description ?? null,
      position,
      createdAt: now,
      updatedAt: now,
    };
    const event = householdEvents(this.ports, input, now);
    await this.ports.freezers.insertFreezer(freezer, [
      event("freezer.created", { freezerId: freezer.id, name: freezer.name }),
    ]);
    return viewFreezer(freezer);
  }
}
