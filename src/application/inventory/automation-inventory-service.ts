import { ValidationError } from "../../domain/shared/validation-error.js";
import { SHOPPING_UNITS } from "../../domain/inventory/shopping-list.js";
import type { ErrorDetail } from "../../domain/shared/domain-error.js";
import type { ItemUnit } from "../../domain/inventory/item-unit.js";
import { AUTOMATION_ACTOR_PREFIX } from "../../domain/inventory/inventory-event.js";
import type { FreezerItemView } from "../../domain/inventory/freezer-item.js";
import { automationActorEmail } from "../../domain/inventory/user.js";
import { SCOPE_TO_AUTOMATION } from "../../ports/automation-scoped-service.js";
import type { Clock } from "../../ports/clock.js";
import type { FreezerCount, HouseholdSummary, InventorySummaries } from "../../ports/inventory-summaries.js";
import type { MembershipSource } from "../../ports/household-repository.js";
import type { ItemRepository } from "../../ports/item-repository.js";
import type { UserRepository } from "../../ports/user-repository.js";
import type { ItemUseCases } from "./items/item-use-cases.js";
import type { ShoppingListEntry, ShoppingUnit } from "../../domain/inventory/shopping-list.js";
import type { ShoppingListUseCases } from "./shopping-list/shopping-list-use-cases.js";

export type { FreezerCount, HouseholdSummary, ShoppingListEntry, ShoppingUnit };

/** What {@link InventoryService.addToShoppingList} puts on the list. */
export interface ShoppingListAddition {
  /** 1–200 characters; leading and trailing spaces are dropped. */
  name: string;
  /** Greater than 0, at most 1000000; default 1. */
  quantity?: number;
  /** Default `piece`. */
  unit?: ShoppingUnit;
  /** A category of the household, or null (default). */
  categoryId?: string | null;
}

/** Options of {@link InventoryService.expiringItems}. */
export interface ExpiringItemsOptions {
  /** Expiring within this many days (default 3); expired items are always included. */
  days?: number;
  /** At most this many items, soonest first (default 100). */
  limit?: number;
}

/**
 * The freezer inventory as automations see it: `this.require<InventoryService>("inventory")`.
 * Reads cover any household; the writes are attributed to an actor named after the automation
 * (its `updatedBy` and history entries), never to a user.
 */
export interface InventoryService {
  /** Active items expiring within `days` days and those already expired, soonest first. */
  expiringItems(householdId: string, options?: ExpiringItemsOptions): Promise<FreezerItemView[]>;
  /** Active items whose name matches `text` word-prefix-wise (as the API's search), best match first. */
  search(householdId: string, text: string, options?: { limit?: number }): Promise<FreezerItemView[]>;
  /** Active items per freezer of the household. */
  countsByFreezer(householdId: string): Promise<FreezerCount[]>;
  /** Item count, expiring within `soonDays` (default 7) and expired, as the MQTT summary shows them. */
  summary(householdId: string, soonDays?: number): Promise<HouseholdSummary>;
  /**
   * Takes `quantity` out; at zero the item is archived as used up. `unit` defaults to the item's;
   * g and kg (ml and l) convert into each other.
   */
  consume(householdId: string, itemId: string, quantity: number, unit?: ItemUnit): Promise<FreezerItemView>;
  /** Moves an active item into the archive. */
  archive(householdId: string, itemId: string): Promise<FreezerItemView>;
  /**
   * Puts an entry at the bottom of the household's shopping list, as a member adding it in the
   * app does: every member's app shows it at once (`shopping_list.added`). Something on the list
   * unchecked by the same name (ignoring case) and unit gets the quantity added instead
   * (`shopping_list.updated`), and that entry is answered. Rejects with
   * SHOPPING_LIST_FULL when the list holds 500 entries already, and with VALIDATION_FAILED for
   * an empty or too long name, a quantity that is not a positive number, or an unknown unit, and
   * with QUANTITY_NOT_WHOLE for a fraction of portions or bags.
   */
  addToShoppingList(householdId: string, entry: ShoppingListAddition): Promise<ShoppingListEntry>;
  /** The household's shopping list, in its order. */
  shoppingList(householdId: string): Promise<ShoppingListEntry[]>;
}

/**
 * Memberships as the automations' item use cases see them: automations are code the
 * household's owner installed on the server, so an automation actor acts as a member of any
 * household; users are looked up as usual.
 */
export function automationMemberships(source: MembershipSource): MembershipSource {
  return {
    async findMembership(householdId, userId) {
      if (!userId.startsWith(AUTOMATION_ACTOR_PREFIX)) return source.findMembership(householdId, userId);
      return { id: `${userId}@${householdId}`, householdId, userId, role: "MEMBER", joinedAt: new Date(0) };
    },
  };
}

export interface AutomationInventoryDependencies {
  /** Built over {@link automationMemberships}. */
  useCases: ItemUseCases;
  items: ItemRepository;
  summaries: InventorySummaries;
  users: UserRepository;
  clock: Clock;
  /** Built over {@link automationMemberships}, like `useCases`. */
  shoppingList: ShoppingListUseCases;
}

/** The actor name used when the service is fetched without `require()` (no automation name known). */
const ANY_AUTOMATION = "automations";

/**
 * The `inventory` service. Registered once; `require()` hands each automation a copy bound
 * to its name, whose writes go through the same use cases as the API (same rules, events
 * and history) as the user `automation:<name>`, created on first use.
 */
export class AutomationInventoryService implements InventoryService {
  private actorId: string | undefined;

  constructor(
    private readonly deps: AutomationInventoryDependencies,
    readonly automation: string = ANY_AUTOMATION,
  ) {}

  [SCOPE_TO_AUTOMATION](automation: string): InventoryService {
    return new AutomationInventoryService(this.deps, automation);
  }

  async expiringItems(householdId: string, options: ExpiringItemsOptions = {}): Promise<FreezerItemView[]> {
    const page = await this.deps.useCases.listExpiringItems.execute({
      householdId,
      userId: this.actorIdentity(),
      days: options.days ?? 3,
      page: 1,
      limit: options.limit ?? 100,
    });
    return page.data;
  }

  async search(householdId: string, text: string, options: { limit?: number } = {}): Promise<FreezerItemView[]> {
    const page = await this.deps.items.list({ householdId, search: text, page: 1, limit: options.limit ?? 50 });
    return page.items;
  }

  countsByFreezer(householdId: string): Promise<FreezerCount[]> {
    return this.deps.summaries.countsByFreezer(householdId);
  }

  summary(householdId: string, soonDays = 7): Promise<HouseholdSummary> {
    return this.deps.summaries.summarize(householdId, this.deps.clock.now(), soonDays);
  }

  async consume(householdId: string, itemId: string, quantity: number, unit?: ItemUnit): Promise<FreezerItemView> {
    return this.deps.useCases.consumeItem.execute({
      householdId,
      itemId,
      quantity,
      unit,
      userId: await this.actor(),
    });
  }

  async archive(householdId: string, itemId: string): Promise<FreezerItemView> {
    return this.deps.useCases.archiveItem.execute({ householdId, itemId, userId: await this.actor() });
  }

  async addToShoppingList(householdId: string, entry: ShoppingListAddition): Promise<ShoppingListEntry> {
    const name = typeof entry?.name === "string" ? entry.name.trim() : "";
    const quantity = entry.quantity ?? 1;
    // Automations are typed code, but a plain-JS automation passes whatever it has: the same
    // bounds as the API's, so nothing the API would refuse reaches the list.
    const problems: ErrorDetail[] = [];
    if (name.length < 1 || name.length > 200) problems.push({ path: "name", message: "must be 1-200 characters" });
    if (typeof quantity !== "number" || !Number.isFinite(quantity) || quantity <= 0 || quantity > 1_000_000)
      problems.push({ path: "quantity", message: "must be a number greater than 0, at most 1000000" });
    if (entry.unit !== undefined && !(SHOPPING_UNITS as readonly unknown[]).includes(entry.unit))
      problems.push({ path: "unit", message: `must be one of ${SHOPPING_UNITS.join(", ")}` });
    if (problems.length > 0) throw new ValidationError("The shopping list entry is not valid", problems);
    const { entry: written } = await this.deps.shoppingList.addShoppingListEntry.execute({
      householdId,
      userId: await this.actor(),
      name,
      quantity,
      unit: entry.unit,
      categoryId: entry.categoryId ?? null,
    });
    return written;
  }

  shoppingList(householdId: string): Promise<ShoppingListEntry[]> {
    return this.deps.shoppingList.listShoppingList.execute({ householdId, userId: this.actorIdentity() });
  }

  private actorIdentity(): string {
    return `${AUTOMATION_ACTOR_PREFIX}${this.automation}`;
  }

  /** The account this automation's changes are recorded under; created once. */
  private async actor(): Promise<string> {
    if (this.actorId) return this.actorId;
    const id = this.actorIdentity();
    if (!(await this.deps.users.findById(id))) {
      const now = this.deps.clock.now();
      // Two first writes at once may both insert: the loser's insert reports false, which is fine.
      await this.deps.users.insert({
        id,
        email: automationActorEmail(this.automation),
        name: `Automation ${this.automation}`,
        // Not a hash any password verifies against: nobody can sign in as an automation.
        passwordHash: "!automation",
        role: "member",
        deletedAt: null,
        createdAt: now,
        updatedAt: now,
      });
    }
    this.actorId = id;
    return id;
  }
}
