import type { FreezerItem, ItemUpdate } from "../../../domain/inventory/freezer-item.js";
import { eventFactory, eventItem, type InventoryEvent } from "../../../domain/inventory/inventory-event.js";

/**
 * The events of an edit: `item.updated` naming the changed fields, and `item.moved` as well
 * when the freezer or compartment changed. None when nothing changed.
 */
export function itemChangeEvents(before: FreezerItem, update: ItemUpdate, newId: () => string): InventoryEvent[] {
  if (update.changes.length === 0) return [];
  const event = eventFactory({
    householdId: before.householdId,
    userId: update.item.updatedById,
    at: update.item.updatedAt,
    newId,
  });
  const item = eventItem(update.item);
  const events = [event("item.updated", { item, changes: update.changes.map((change) => change.fieldName) })];
  if (before.freezerId !== update.item.freezerId || before.compartmentId !== update.item.compartmentId) {
    events.push(
      event("item.moved", { item, from: { freezerId: before.freezerId, compartmentId: before.compartmentId } }),
    );
  }
  return events;
}
