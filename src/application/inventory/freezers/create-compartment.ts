import { householdEvents } from "../household-events.js";
import { requireFreezer } from "./find-freezer.js";
import { HouseholdUseCase } from "../household-access.js";
import { type CompartmentView, viewCompartment } from "./freezer-views.js";
import type { FreezerInput } from "./get-freezer.js";
import type { InventoryPorts } from "../inventory-ports.js";

export interface CreateCompartmentInput extends FreezerInput {
  name: string;
  /** Defaults to 0. */
  position?: number | undefined;
}

export class CreateCompartment extends HouseholdUseCase<Pick<InventoryPorts, "freezers" | "ids" | "clock">> {
  async execute(input: CreateCompartmentInput): Promise<CompartmentView> {
    await this.access.requireMember(input.householdId, input.userId);
    const freezer = await requireFreezer(this.ports.freezers, input.householdId, input.freezerId);
    const compartment = {
      id: this.ports.ids.next(),
      freezerId: freezer.id,
      name: input.name.trim(),
      position: input.position ?? 0,
      createdAt: this.ports.clock.now(),
    };
    const event = householdEvents(this.ports, input, compartment.createdAt);
    await this.ports.freezers.insertCompartment(compartment, [
      event("compartment.created", { freezerId: freezer.id, compartmentId: compartment.id, name: compartment.name }),
    ]);
    return viewCompartment(compartment);
  }
}
