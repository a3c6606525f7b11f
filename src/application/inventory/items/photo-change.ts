import { type FreezerItem, isArchived } from "../../../domain/inventory/freezer-item.js";
import { applyPhotoChange } from "../../../domain/inventory/item-photo.js";
import { ItemArchivedError } from "../../../domain/inventory/item-errors.js";
import type { ItemUpdate } from "../../../domain/inventory/freezer-item.js";
import { itemChangeEvents } from "./item-events.js";
import type { ItemPhotoPorts } from "./item-photo-use-cases.js";

/**
 * The item with its photo set or removed, its `photo` history entry and the `item.updated`
 * event (changes: ["photo"]) that tells other members' apps to reload it. Archived items keep
 * the photo they had, like every other field.
 */
export function photoUpdate(
  ports: Pick<ItemPhotoPorts, "clock" | "ids">,
  current: FreezerItem,
  userId: string,
  photo: boolean,
): ItemUpdate {
  if (isArchived(current)) throw new ItemArchivedError();
  const update = applyPhotoChange(current, photo, {
    by: userId,
    now: ports.clock.now(),
    newId: () => ports.ids.next(),
  });
  return { ...update, events: itemChangeEvents(current, update, () => ports.ids.next()) };
}
