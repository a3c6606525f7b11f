import type { FreezerItemView } from "../../domain/inventory/freezer-item.js";
import type { PhotoImages, PhotoSize, StoredPhoto } from "../../domain/inventory/item-photo.js";
import type { MembershipSource } from "../../ports/household-repository.js";
import type { ItemPhotoRepository } from "../../ports/item-photo-repository.js";
import type { ItemUpdater, MemberItem, MemberRead } from "../../ports/item-repository.js";
import type { MemoryItemRepository } from "./memory-item-repository.js";

interface MemoryPhoto extends PhotoImages {
  updatedAt: Date;
}

/** Photos in process memory beside the in-memory items, for tests and the in-memory API. */
export class MemoryItemPhotoRepository implements ItemPhotoRepository {
  private readonly photos = new Map<string, MemoryPhoto>();

  constructor(
    private readonly items: MemoryItemRepository,
    private readonly memberships: MembershipSource,
  ) {}

  async replaceForMember(
    ref: MemberItem,
    images: PhotoImages | null,
    updater: ItemUpdater,
  ): Promise<MemberRead<FreezerItemView> | undefined> {
    const { userId, householdId, itemId } = ref;
    if (!(await this.memberships.findMembership(householdId, userId))) return undefined;
    // A throwing updater leaves the item and the photo as they were, as the transaction does.
    const updated = await this.items.update(householdId, itemId, updater);
    if (!updated) return { found: undefined };
    if (images && updated.photoUpdatedAt) {
      this.photos.set(itemId, {
        contentType: images.contentType,
        thumb: Uint8Array.from(images.thumb),
        display: Uint8Array.from(images.display),
        updatedAt: updated.photoUpdatedAt,
      });
    } else if (!updated.photoUpdatedAt) {
      this.photos.delete(itemId);
    }
    return { found: updated };
  }

  async findForMember(ref: MemberItem, size: PhotoSize): Promise<MemberRead<StoredPhoto> | undefined> {
    const { userId, householdId, itemId } = ref;
    if (!(await this.memberships.findMembership(householdId, userId))) return undefined;
    const item = this.items.holds(itemId);
    const photo = this.photos.get(itemId);
    if (!item || item.householdId !== householdId || !photo) return { found: undefined };
    return { found: { contentType: photo.contentType, image: photo[size], updatedAt: photo.updatedAt } };
  }

  /** Drops the photo of an item deleted for good (the foreign key's cascade on SQL). */
  forget(itemId: string): void {
    this.photos.delete(itemId);
  }

  /** The display rendition of an item's photo, for export; undefined without one. */
  displayOf(itemId: string): PhotoImages | undefined {
    const photo = this.photos.get(itemId);
    return photo && this.items.holds(itemId) ? { ...photo } : undefined;
  }

  /** Stores a photo an import brings, with the item it belongs to already written. */
  put(itemId: string, images: PhotoImages, updatedAt: Date): void {
    this.photos.set(itemId, { ...images, updatedAt });
  }
}
