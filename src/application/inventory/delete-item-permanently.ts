import { isArchived } from "../../domain/inventory/freezer-item.js";
import { ItemNotArchivedError, ItemNotFoundError } from "../../domain/inventory/item-errors.js";
import { eventFactory } from "../../domain/inventory/inventory-event.js";
import type { Clock } from "../../ports/clock.js";
import type { IdGenerator } from "../../ports/id-generator.js";
import type { ItemRepository } from "../../ports/item-repository.js";

/** Removes an archived item and its history for good; active items must be archived first. */
export class DeleteItemPermanently {
  constructor(
    private readonly items: ItemRepository,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  /** `userId`, when known, is recorded as the event's actor. */
  async execute(input: { householdId: string; itemId: string; userId?: string }): Promise<void> {
    const deleted = await this.items.deletePermanently(input.householdId, input.itemId, (current) => {
      if (!isArchived(current)) throw new ItemNotArchivedError();
      const event = eventFactory({
        householdId: input.householdId,
        userId: input.userId ?? null,
        at: this.clock.now(),
        newId: () => this.ids.next(),
      });
      return [event("item.deleted", { itemId: current.id, name: current.name })];
    });
    if (!deleted) throw new ItemNotFoundError();
  }
}
