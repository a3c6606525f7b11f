import type { FreezerItem, FreezerItemView } from "../../domain/inventory/freezer-item.js";
import { eventFactory, eventItem } from "../../domain/inventory/inventory-event.js";
import type { Clock } from "../../ports/clock.js";
import type { IdGenerator } from "../../ports/id-generator.js";
import type { ItemPlacementLookup } from "../../ports/item-placement.js";
import type { ItemRepository } from "../../ports/item-repository.js";
import { assertValidPlacement } from "./item-placement.js";

export interface CreateItemInput {
  householdId: string;
  userId: string;
  name: string;
  quantity: number;
  freezerId: string;
  compartmentId: string;
  notes?: string | null;
  /** Defaults to now. */
  storedAt?: Date | null;
  expiresAt?: Date | null;
}

/** Puts a new item into a compartment of one of the household's freezers. */
export class CreateItem {
  constructor(
    private readonly items: ItemRepository,
    private readonly placements: ItemPlacementLookup,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(input: CreateItemInput): Promise<FreezerItemView> {
    await assertValidPlacement(this.placements, input.householdId, input.freezerId, input.compartmentId);
    const now = this.clock.now();
    const item: FreezerItem = {
      id: this.ids.next(),
      householdId: input.householdId,
      freezerId: input.freezerId,
      compartmentId: input.compartmentId,
      name: input.name,
      quantity: input.quantity,
      notes: input.notes ?? null,
      storedAt: input.storedAt === undefined ? now : input.storedAt,
      expiresAt: input.expiresAt ?? null,
      deletedAt: null,
      createdAt: now,
      updatedAt: now,
      createdById: input.userId,
      updatedById: input.userId,
    };
    const event = eventFactory({ householdId: input.householdId, userId: input.userId, at: now, newId: () => this.ids.next() });
    return this.items.create(item, [event("item.created", { item: eventItem(item) })]);
  }
}
