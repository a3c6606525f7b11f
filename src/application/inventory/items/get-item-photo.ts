import { NotHouseholdMemberError } from "../../../domain/inventory/errors.js";
import { type PhotoSize, PhotoNotFoundError, type StoredPhoto } from "../../../domain/inventory/item-photo.js";
import { HouseholdUseCase } from "../household-access.js";
import type { ItemPhotoPorts } from "./item-photo-use-cases.js";

/** One rendition of an item's photo (active or archived item), for members only. */
export class GetItemPhoto extends HouseholdUseCase<ItemPhotoPorts> {
  async execute(input: { householdId: string; itemId: string; userId: string; size: PhotoSize }): Promise<StoredPhoto> {
    const { size, ...ref } = input;
    const read = await this.ports.photos.findForMember(ref, size);
    if (!read) throw new NotHouseholdMemberError();
    // An item of another household, one that does not exist and one without a photo look alike.
    if (!read.found) throw new PhotoNotFoundError();
    return read.found;
  }
}
