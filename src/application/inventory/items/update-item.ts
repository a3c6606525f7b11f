import {
  type FreezerItem,
  type FreezerItemView,
  type ItemPatch,
  type ItemUpdate,
  applyItemPatch,
  isArchived,
  itemVersion,
} from "../../../domain/inventory/freezer-item.js";
import { NotHouseholdMemberError } from "../../../domain/inventory/errors.js";
import type { InventoryEvent } from "../../../domain/inventory/inventory-event.js";
import { ItemArchivedError, ItemChangedError, ItemNotFoundError } from "../../../domain/inventory/item-errors.js";
import { itemChangeEvents } from "./item-events.js";
import { HouseholdUseCase } from "../household-access.js";
import { assertValidCategory, assertValidPlacement } from "./item-placement.js";
import type { ItemPorts } from "./item-use-cases.js";

export interface UpdateItemInput {
  householdId: string;
  itemId: string;
  userId: string;
  patch: ItemPatch;
  /**
   * The versions (see itemVersion) the edit was made on: when given, the item is changed only
   * if it still is at one of them, else ItemChangedError with the current item.
   */
  expectedVersions?: readonly string[];
}

/** Signals that the item moved while its new placement was being checked. */
class PlacementMovedMeanwhile extends Error {}

const MAX_ATTEMPTS = 5;

/**
 * Changes any subset of an active item's fields and records one change-log entry per field
 * that really changed. The repository serialises concurrent updates of one item, so each
 * entry's old value is what the previous change set.
 */
export class UpdateItem extends HouseholdUseCase<ItemPorts> {
  async execute(input: UpdateItemInput): Promise<FreezerItemView> {
    try {
      return await this.update(input);
    } catch (error) {
      if (!(error instanceof ItemChangedError) || error.current) throw error;
      // The check ran under the item's lock; the item as it is now goes back to the caller.
      throw new ItemChangedError(await this.ports.items.findById(input.householdId, input.itemId));
    }
  }

  private async update(input: UpdateItemInput): Promise<FreezerItemView> {
    const { householdId, itemId, userId, patch, expectedVersions } = input;
    if (typeof patch.categoryId === "string") {
      // Members only learn whether a category id is the household's (403 before 400).
      await this.access.requireMember(householdId, userId);
      // Checked before the write; one deleted meanwhile fails the write on its foreign key.
      await assertValidCategory(this.ports.placements, householdId, patch.categoryId);
    }
    if (patch.freezerId === undefined && patch.compartmentId === undefined) {
      // No placement to check: the membership is read with the item, in the same statement.
      const read = await this.ports.items.updateForMember({ userId, householdId, itemId }, (current) =>
        this.change(current, userId, patch, expectedVersions),
      );
      if (!read) throw new NotHouseholdMemberError();
      if (!read.found) throw new ItemNotFoundError();
      return read.found;
    }
    await this.access.requireMember(householdId, userId);
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.attempt(input);
      } catch (error) {
        if (!(error instanceof PlacementMovedMeanwhile) || attempt >= MAX_ATTEMPTS) throw error;
      }
    }
  }

  private async attempt({
    householdId,
    itemId,
    userId,
    patch,
    expectedVersions,
  }: UpdateItemInput): Promise<FreezerItemView> {
    const movesItem = patch.freezerId !== undefined || patch.compartmentId !== undefined;
    let checked: { freezerId: string; compartmentId: string } | undefined;
    if (movesItem) {
      // The placement check reads freezers, which must not happen inside the item's
      // transaction (PGlite has one connection), so check first and verify under the lock.
      const before = await this.ports.items.findById(householdId, itemId);
      if (!before) throw new ItemNotFoundError();
      if (expectedVersions && !expectedVersions.includes(itemVersion(before))) throw new ItemChangedError(before);
      if (isArchived(before)) throw new ItemArchivedError();
      checked = {
        freezerId: patch.freezerId ?? before.freezerId,
        compartmentId: patch.compartmentId ?? before.compartmentId,
      };
      await assertValidPlacement(
        this.ports.placements,
        householdId,
        checked.freezerId,
        checked.compartmentId,
        patch.compartmentId !== undefined,
      );
    }
    const updated = await this.ports.items.update(householdId, itemId, (current) => {
      if (
        checked &&
        (checked.freezerId !== (patch.freezerId ?? current.freezerId) ||
          checked.compartmentId !== (patch.compartmentId ?? current.compartmentId))
      ) {
        throw new PlacementMovedMeanwhile();
      }
      return this.change(current, userId, patch, expectedVersions);
    });
    if (!updated) throw new ItemNotFoundError();
    return updated;
  }

  /** The patch applied to an active item, with its change-log entries and events. */
  private change(
    current: FreezerItem,
    userId: string,
    patch: ItemPatch,
    expectedVersions: readonly string[] | undefined,
  ): ItemUpdate & { events: InventoryEvent[] } {
    // Runs on the locked (or compare-and-set) state, so the check and the write cannot be split.
    if (expectedVersions && !expectedVersions.includes(itemVersion(current))) throw new ItemChangedError();
    if (isArchived(current)) throw new ItemArchivedError();
    const update = applyItemPatch(current, patch, {
      by: userId,
      now: this.ports.clock.now(),
      newId: () => this.ports.ids.next(),
    });
    return { ...update, events: itemChangeEvents(current, update, () => this.ports.ids.next()) };
  }
}
