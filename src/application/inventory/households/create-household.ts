import { requireActiveUser } from "../accounts/active-user.js";
import { defaultCategories } from "../../../domain/inventory/item-category.js";
import { type HouseholdView, viewHousehold } from "./household-views.js";
import type { InventoryPorts } from "../inventory-ports.js";

export interface CreateHouseholdInput {
  userId: string;
  name: string;
  /** IANA time zone (validated at the boundary); default UTC. */
  timeZone?: string | undefined;
}

/** The creator becomes the owner; the household starts with the default categories. */
export class CreateHousehold {
  constructor(private readonly ports: Pick<InventoryPorts, "users" | "households" | "ids" | "clock">) {}

  async execute(input: CreateHouseholdInput): Promise<HouseholdView> {
    const user = await requireActiveUser(this.ports.users, input.userId);
    const now = this.ports.clock.now();
    const household = {
      id: this.ports.ids.next(),
      name: input.name.trim(),
      ownerId: user.id,
      timeZone: input.timeZone ?? "UTC",
      createdAt: now,
      updatedAt: now,
    };
    await this.ports.households.create(
      household,
      { id: this.ports.ids.next(), householdId: household.id, userId: user.id, role: "OWNER", joinedAt: now },
      defaultCategories(household.id, now, () => this.ports.ids.next()),
    );
    return viewHousehold(household);
  }
}
