import type { ShoppingListEntry } from "./api.js";
import type { QueuedWrite } from "./offline.js";

/**
 * An entry as the list shows it. `waiting` is the id of the queued write behind an entry added
 * on this device and not yet sent: it has no id on the server yet, so it can be checked off or
 * removed here but not moved.
 */
export interface ShownEntry extends ShoppingListEntry {
  waiting?: number;
}

/** The prefix of the stand-in id of an entry that is still a queued add. */
const WAITING_ID = "waiting-";

/**
 * The list as last seen with this household's shopping writes that wait to be sent laid over it,
 * in the order they were made: what was checked off in the shop shows checked, what was removed
 * is gone, what was added is at the end. Refused writes are left out: the pending list shows them
 * with the server's reason, and the list shows what the server keeps.
 */
export function withWaitingWrites(
  entries: readonly ShoppingListEntry[],
  writes: readonly QueuedWrite[],
  householdId: string,
): ShownEntry[] {
  let shown: ShownEntry[] = [...entries];
  for (const write of writes) {
    if (write.householdId !== householdId || write.status !== "waiting") continue;
    if (write.kind === "shoppingCheck") {
      shown = shown.map((entry) => (entry.id === write.entryId ? { ...entry, checked: write.checked } : entry));
    } else if (write.kind === "shoppingRemove") {
      shown = shown.filter((entry) => entry.id !== write.entryId);
    } else if (write.kind === "shoppingAdd" && write.id !== undefined) {
      shown.push({
        id: `${WAITING_ID}${write.id}`,
        householdId,
        name: write.body.name,
        quantity: write.body.quantity,
        unit: write.body.unit,
        categoryId: null,
        checked: write.body.checked ?? false,
        position: shown.length,
        createdAt: "",
        updatedAt: "",
        waiting: write.id,
      });
    }
  }
  return shown;
}
