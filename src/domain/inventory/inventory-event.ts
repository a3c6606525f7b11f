import type { FreezerItem } from "./freezer-item.js";
import type { ItemUnit } from "./item-unit.js";

/** Every kind of inventory event, by the thing that changed and what happened to it. */
export const INVENTORY_EVENT_TYPES = [
  "item.created",
  "item.updated",
  "item.moved",
  "item.consumed",
  "item.archived",
  "item.restored",
  "item.deleted",
  "freezer.created",
  "freezer.deleted",
  "compartment.created",
  "compartment.deleted",
  "category.created",
  "category.updated",
  "category.deleted",
  "member.joined",
  "member.left",
  "member.role_changed",
  "household.deleted",
  "shopping_list.added",
  "shopping_list.updated",
  "shopping_list.removed",
] as const;

export type InventoryEventType = (typeof INVENTORY_EVENT_TYPES)[number];

/**
 * Who made a change: a signed-in user (by id only: events leave the process over MQTT, so
 * they carry no e-mail address) or an automation, by its name.
 */
export type InventoryActor = { kind: "user"; id: string } | { kind: "automation"; id: string; name: string };

/** The item as events describe it: what automations act on, nothing about who touched it. */
export interface InventoryEventItem {
  id: string;
  name: string;
  quantity: number;
  unit: ItemUnit;
  categoryId: string | null;
  freezerId: string;
  compartmentId: string;
  expiresAt: string | null;
  archived: boolean;
  /** The product's barcode, or null. */
  barcode: string | null;
}

/** A shopping-list entry as events describe it. */
export interface InventoryEventShoppingEntry {
  id: string;
  name: string;
  quantity: number;
  unit: string;
  categoryId: string | null;
  checked: boolean;
  position: number;
}

/** A category as events describe it. */
export interface InventoryEventCategory {
  categoryId: string;
  key: string | null;
  name: string;
  position: number;
}

/** What each event type carries besides the envelope. */
export interface InventoryEventData {
  "item.created": { item: InventoryEventItem };
  /** `changes`: the tracked fields that changed (a move lists freezerId / compartmentId as well). */
  "item.updated": { item: InventoryEventItem; changes: string[] };
  "item.moved": { item: InventoryEventItem; from: { freezerId: string; compartmentId: string } };
  /**
   * `remaining` 0 means the item was used up and archived. `quantity` and `remaining` are in the
   * item's unit; `taken` is the amount as it was asked for (250 g of an item counted in kg).
   */
  "item.consumed": {
    item: InventoryEventItem;
    quantity: number;
    remaining: number;
    taken: { quantity: number; unit: ItemUnit };
  };
  "item.archived": { item: InventoryEventItem; reason: "archived" | "used_up" };
  "item.restored": { item: InventoryEventItem };
  "item.deleted": { itemId: string; name: string };
  "freezer.created": { freezerId: string; name: string };
  "freezer.deleted": { freezerId: string };
  "compartment.created": { freezerId: string; compartmentId: string; name: string };
  "compartment.deleted": { freezerId: string; compartmentId: string };
  "category.created": { category: InventoryEventCategory };
  "category.updated": { category: InventoryEventCategory };
  /** Items of the category are uncategorised (categoryId null) by the same change; `itemCount` of them. */
  "category.deleted": { categoryId: string; itemCount: number };
  "member.joined": { userId: string; role: "OWNER" | "MEMBER" };
  "member.left": { userId: string; removed: boolean };
  "member.role_changed": { userId: string; role: "OWNER" | "MEMBER" };
  /** The last event of a household: everything in it is gone with it. */
  "household.deleted": { name: string };
  "shopping_list.added": { entry: InventoryEventShoppingEntry };
  /** `changes`: the fields the member changed (`position` for a move; the entries it shifted get no event of their own). */
  "shopping_list.updated": { entry: InventoryEventShoppingEntry; changes: string[] };
  /** `stocked`: the entry became the item `itemId` (checked entries stocked after shopping). */
  "shopping_list.removed": { entryId: string; name: string; stocked?: { itemId: string } };
}

/**
 * One change of one household's inventory, as the outbox stores it and the dispatcher
 * delivers it: a unique id, when it happened, who did it, and the type's data.
 */
export type InventoryEvent = {
  [K in InventoryEventType]: {
    id: string;
    type: K;
    householdId: string;
    occurredAt: Date;
    actor: InventoryActor | null;
    data: InventoryEventData[K];
  };
}[InventoryEventType];

export type InventoryEventOf<K extends InventoryEventType> = Extract<InventoryEvent, { type: K }>;

export function isInventoryEventType(value: unknown): value is InventoryEventType {
  return typeof value === "string" && (INVENTORY_EVENT_TYPES as readonly string[]).includes(value);
}

/** The item fields an event carries. */
export function eventItem(item: FreezerItem): InventoryEventItem {
  return {
    id: item.id,
    name: item.name,
    quantity: item.quantity,
    unit: item.unit,
    categoryId: item.categoryId,
    freezerId: item.freezerId,
    compartmentId: item.compartmentId,
    expiresAt: item.expiresAt?.toISOString() ?? null,
    archived: item.deletedAt !== null,
    barcode: item.barcode,
  };
}

/** Ids of automation actors start with this, so no user id (a cuid2) can ever equal one. */
export const AUTOMATION_ACTOR_PREFIX = "automation:";

/** The actor recorded for a user id (automation actors are users too, with a prefixed id). */
export function actorFor(userId: string, automationName?: string): InventoryActor {
  if (userId.startsWith(AUTOMATION_ACTOR_PREFIX)) {
    return { kind: "automation", id: userId, name: automationName ?? userId.slice(AUTOMATION_ACTOR_PREFIX.length) };
  }
  return { kind: "user", id: userId };
}

/** Builds events for one change: same household, actor and moment; ids from `newId`. */
export function eventFactory(context: { householdId: string; userId: string | null; at: Date; newId: () => string }) {
  return <K extends InventoryEventType>(type: K, data: InventoryEventData[K]): InventoryEvent =>
    ({
      id: context.newId(),
      type,
      householdId: context.householdId,
      occurredAt: context.at,
      actor: context.userId === null ? null : actorFor(context.userId),
      data,
    }) as InventoryEvent;
}
