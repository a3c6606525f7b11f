import { NotHouseholdMemberError } from "../../../domain/inventory/errors.js";
import { type FreezerItemView, isArchived } from "../../../domain/inventory/freezer-item.js";
import { ItemArchivedError, ItemNotFoundError } from "../../../domain/inventory/item-errors.js";
import { HouseholdUseCase } from "../household-access.js";
import type { ItemPhotoPorts } from "./item-photo-use-cases.js";
import { photoUpdate } from "./photo-change.js";

export interface SetItemPhotoInput {
  householdId: string;
  itemId: string;
  userId: string;
  /**
   * Reads the uploaded image; called only once the caller is known to be a member and the
   * item to be active, so nobody else makes the server read (or decode) a file.
   */
  image(): Promise<Uint8Array>;
}

/** Gives an active item a photo (replacing any): decoded, made upright, resized, stripped of metadata. */
export class SetItemPhoto extends HouseholdUseCase<ItemPhotoPorts> {
  async execute(input: SetItemPhotoInput): Promise<FreezerItemView> {
    const { householdId, itemId, userId } = input;
    const before = await this.ports.items.findForMember({ householdId, itemId, userId });
    if (!before) throw new NotHouseholdMemberError();
    if (!before.found) throw new ItemNotFoundError();
    if (isArchived(before.found)) throw new ItemArchivedError();
    const images = await this.ports.processor.process(await input.image());
    const written = await this.ports.photos.replaceForMember({ householdId, itemId, userId }, images, (current) =>
      photoUpdate(this.ports, current, userId, true),
    );
    if (!written) throw new NotHouseholdMemberError();
    if (!written.found) throw new ItemNotFoundError();
    return written.found;
  }
}
