import type { Knex } from "knex";
import type { FreezerItemView } from "../../domain/inventory/freezer-item.js";
import type { PhotoImages, PhotoSize, StoredPhoto } from "../../domain/inventory/item-photo.js";
import type { ItemPhotoRepository } from "../../ports/item-photo-repository.js";
import type { ItemUpdater, MemberItem, MemberRead } from "../../ports/item-repository.js";
import type { KnexItemRepository } from "./knex-item-repository.js";
import { toDate } from "./knex-rows.js";

/** The column of each rendition: chosen from this table, never from input. */
const SIZE_COLUMNS: Record<PhotoSize, string> = { thumb: "p.thumb", display: "p.display" };

interface PhotoReadRow {
  item_id: string | null;
  content_type: string | null;
  image: Uint8Array | null;
  updated_at: Date | string | null;
}

/** Photos in `item_photos` (PostgreSQL and PGlite), written with their item's row under its lock. */
export class KnexItemPhotoRepository implements ItemPhotoRepository {
  constructor(
    private readonly knex: Knex,
    private readonly items: KnexItemRepository,
  ) {}

  async replaceForMember(
    ref: MemberItem,
    images: PhotoImages | null,
    updater: ItemUpdater,
  ): Promise<MemberRead<FreezerItemView> | undefined> {
    const { userId, householdId, itemId } = ref;
    return this.knex.transaction(async (trx) => {
      const member = await trx.raw<{ rows: unknown[] }>(
        "SELECT 1 FROM memberships WHERE household_id = ? AND user_id = ?",
        [householdId, userId],
      );
      if (member.rows.length === 0) return undefined;
      const updated = await this.items.updateInTransaction(trx, householdId, itemId, updater);
      if (!updated) return { found: undefined };
      if (images && updated.photoUpdatedAt) {
        await trx.raw(
          `INSERT INTO item_photos (item_id, content_type, thumb, display, updated_at) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (item_id) DO UPDATE SET content_type = EXCLUDED.content_type, thumb = EXCLUDED.thumb,
             display = EXCLUDED.display, updated_at = EXCLUDED.updated_at`,
          [itemId, images.contentType, Buffer.from(images.thumb), Buffer.from(images.display), updated.photoUpdatedAt],
        );
      } else if (!updated.photoUpdatedAt) {
        await trx("item_photos").where({ item_id: itemId }).delete();
      }
      return { found: updated };
    });
  }

  async findForMember(ref: MemberItem, size: PhotoSize): Promise<MemberRead<StoredPhoto> | undefined> {
    const { userId, householdId, itemId } = ref;
    const result = await this.knex.raw<{ rows: PhotoReadRow[] }>(
      `SELECT p.item_id, p.content_type, ${SIZE_COLUMNS[size]} AS image, p.updated_at
         FROM memberships m
         LEFT JOIN freezer_items i ON i.id = ? AND i.household_id = m.household_id
         LEFT JOIN item_photos p ON p.item_id = i.id
        WHERE m.household_id = ? AND m.user_id = ?`,
      [itemId, householdId, userId],
    );
    const row = result.rows[0];
    if (!row) return undefined;
    if (row.item_id === null || row.image === null || row.content_type === null || row.updated_at === null) {
      return { found: undefined };
    }
    return { found: { contentType: row.content_type, image: row.image, updatedAt: toDate(row.updated_at) } };
  }
}
