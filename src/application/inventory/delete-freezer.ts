import { FreezerNotEmptyError, FreezerNotFoundError } from "../../domain/inventory/errors.js";
import type { FreezerInput } from "./get-freezer.js";
import type { HouseholdAccess } from "./household-access.js";
import type { Confirmation, InventoryPorts } from "./inventory-ports.js";

/** Deletes an empty freezer with its compartments; refused while any item, archived ones included, is in it. */
export class DeleteFreezer {
  constructor(
    private readonly ports: Pick<InventoryPorts, "freezers">,
    private readonly access: HouseholdAccess,
  ) {}

  async execute(input: FreezerInput): Promise<Confirmation> {
    await this.access.requireOwner(input.householdId, input.userId);
    const outcome = await this.ports.freezers.deleteFreezer(input.householdId, input.freezerId);
    if (outcome === "not-found") throw new FreezerNotFoundError();
    if (outcome === "has-items") throw new FreezerNotEmptyError();
    return { message: "Freezer deleted" };
  }
}
