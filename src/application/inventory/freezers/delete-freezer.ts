import { householdEvents } from "../household-events.js";
import { FreezerNotEmptyError, FreezerNotFoundError } from "../../../domain/inventory/errors.js";
import type { FreezerInput } from "./get-freezer.js";
import { HouseholdUseCase } from "../household-access.js";
import type { Confirmation, InventoryPorts } from "../inventory-ports.js";

/** Deletes an empty freezer with its compartments; refused while any item, archived ones included, is in it. */
export class DeleteFreezer extends HouseholdUseCase<Pick<InventoryPorts, "freezers" | "ids" | "clock">> {
  async execute(input: FreezerInput): Promise<Confirmation> {
    await this.access.requireOwner(input.householdId, input.userId);
    const event = householdEvents(this.ports, input);
    const outcome = await this.ports.freezers.deleteFreezer(input.householdId, input.freezerId, [
      event("freezer.deleted", { freezerId: input.freezerId }),
    ]);
    if (outcome === "not-found") throw new FreezerNotFoundError();
    if (outcome === "has-items") throw new FreezerNotEmptyError();
    return { message: "Freezer deleted" };
  }
}
