import { InvalidTransferTargetError } from "../../domain/inventory/errors.js";
import type { HouseholdAccess } from "./household-access.js";
import { type HouseholdView, viewHousehold } from "./household-views.js";
import type { HouseholdInput, InventoryPorts } from "./inventory-ports.js";

export interface TransferOwnershipInput extends HouseholdInput {
  newOwnerId: string;
}

/** The new owner gets role OWNER; the previous owner stays as a MEMBER. */
export class TransferOwnership {
  constructor(
    private readonly ports: Pick<InventoryPorts, "households" | "clock">,
    private readonly access: HouseholdAccess,
  ) {}

  async execute(input: TransferOwnershipInput): Promise<HouseholdView> {
    await this.access.requireOwner(input.householdId, input.userId);
    if (input.newOwnerId === input.userId) throw new InvalidTransferTargetError("You already own this household");
    const target = await this.ports.households.findMembership(input.householdId, input.newOwnerId);
    if (!target) throw new InvalidTransferTargetError("newOwnerId must be the user id of a member of this household");
    const household = await this.ports.households.transferOwnership(
      input.householdId,
      input.newOwnerId,
      this.ports.clock.now(),
    );
    if (!household) throw new InvalidTransferTargetError("newOwnerId must be the user id of a member of this household");
    return viewHousehold(household);
  }
}
