import { householdEvents } from "../household-events.js";
import type { FreezerItem, FreezerItemView } from "../../../domain/inventory/freezer-item.js";
import { eventItem } from "../../../domain/inventory/inventory-event.js";
import { NotHouseholdMemberError } from "../../../domain/inventory/errors.js";
import { InvalidItemPlacementError } from "../../../domain/inventory/item-errors.js";
import { assertValidCategory, assertValidPlacement } from "./item-placement.js";
import { InvalidItemCategoryError } from "../../../domain/inventory/item-category.js";
import { assertQuantityFitsUnit, DEFAULT_ITEM_UNIT, type ItemUnit } from "../../../domain/inventory/item-unit.js";
import type { ItemPorts } from "./item-use-cases.js";

export interface CreateItemInput {
  householdId: string;
  userId: string;
  name: string;
  quantity: number;
  /** Defaults to piece. */
  unit?: ItemUnit | undefined;
  categoryId?: string | null | undefined;
  freezerId: string;
  compartmentId: string;
  notes?: string | null | undefined;
  /** Defaults to now. */
  storedAt?: Date | null | undefined;
  expiresAt?: Date | null | undefined;
  barcode?: string | null | undefined;
}

/** Puts a new item into a compartment of one of the household's freezers. */
export class CreateItem {
  constructor(private readonly ports: ItemPorts) {}

  async execute(input: CreateItemInput): Promise<FreezerItemView> {
    const unit = input.unit ?? DEFAULT_ITEM_UNIT;
    assertQuantityFitsUnit(input.quantity, unit);
    const now = this.ports.clock.now();
    const item: FreezerItem = {
      id: this.ports.ids.next(),
      householdId: input.householdId,
      freezerId: input.freezerId,
      compartmentId: input.compartmentId,
      name: input.name,
      quantity: input.quantity,
      unit,
      categoryId: input.categoryId ?? null,
      notes: input.notes ?? null,
      storedAt: input.storedAt === undefined ? now : input.storedAt,
      expiresAt: input.expiresAt ?? null,
      barcode: input.barcode ?? null,
      deletedAt: null,
      createdAt: now,
      updatedAt: now,
      createdById: input.userId,
      updatedById: input.userId,
    };
    const event = householdEvents(this.ports, input, now);
    // Membership, placement and the insert are one statement; a refusal is explained after.
    const result = await this.ports.items.createForMember(input.userId, item, [
      event("item.created", { item: eventItem(item) }),
    ]);
    if ("created" in result) return result.created;
    if (result.refused === "not-member") throw new NotHouseholdMemberError();
    if (result.refused === "category") {
      await assertValidCategory(this.ports.placements, input.householdId, input.categoryId);
      throw new InvalidItemCategoryError("The category was removed while the item was being saved");
    }
    await assertValidPlacement(this.ports.placements, input.householdId, input.freezerId, input.compartmentId);
    // Valid now, not when the insert ran: the freezer's compartments changed in between.
    throw new InvalidItemPlacementError([
      { path: "compartmentId", message: "The compartment changed while the item was being saved; try again" },
    ]);
  }
}
