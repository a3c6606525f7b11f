import { NotHouseholdMemberError } from "../../../domain/inventory/errors.js";
import type { FreezerItemView } from "../../../domain/inventory/freezer-item.js";
import { ItemNotFoundError } from "../../../domain/inventory/item-errors.js";
import { HouseholdUseCase } from "../household-access.js";
import type { ItemPhotoPorts } from "./item-photo-use-cases.js";
import { photoUpdate } from "./photo-change.js";

/** Removes an active item's photo; an item without one is answered as it is. */
export class RemoveItemPhoto extends HouseholdUseCase<ItemPhotoPorts> {
  async execute(input: { householdId: string; itemId: string; userId: string }): Promise<FreezerItemView> {
    const written = await this.ports.photos.replaceForMember(input, null, (current) =>
      photoUpdate(this.ports, current, input.userId, false),
    );
    if (!written) throw new NotHouseholdMemberError();
    if (!written.found) throw new ItemNotFoundError();
    return written.found;
  }
}
