import type { FreezerItemView } from "../domain/inventory/freezer-item.js";
import type { PhotoImages, PhotoSize, StoredPhoto } from "../domain/inventory/item-photo.js";
import type { ItemUpdater, MemberItem, MemberRead } from "./item-repository.js";

/**
 * Storage of items' photos, apart from the items so that item lists never read image bytes.
 * The item row carries the photo's version (`photoUpdatedAt`); every write changes both in
 * one transaction.
 */
export interface ItemPhotoRepository {
  /**
   * Locks the item, applies `updater` (which sets or clears `photoUpdatedAt`, with its
   * change log and events) and stores `images` (null: removes the photo) with the item's new
   * state, all in one transaction. Undefined when `userId` is not a member of the household;
   * `found` undefined when the household has no such item. When the updater throws, nothing
   * is written.
   */
  replaceForMember(
    ref: MemberItem,
    images: PhotoImages | null,
    updater: ItemUpdater,
  ): Promise<MemberRead<FreezerItemView> | undefined>;
  /**
   * One rendition of the item's photo as `userId` reads it: undefined when not a member;
   * `found` undefined when the household has no such item or the item has no photo.
   */
  findForMember(ref: MemberItem, size: PhotoSize): Promise<MemberRead<StoredPhoto> | undefined>;
}

export const ITEM_PHOTO_REPOSITORY = Symbol("ItemPhotoRepository");
