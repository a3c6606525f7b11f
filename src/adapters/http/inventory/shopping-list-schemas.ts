import { z } from "zod";
import "./openapi.js";
import {
  SHOPPING_LIST_MAX_ENTRIES,
  SHOPPING_UNITS,
  type ShoppingListEntry,
} from "../../../domain/inventory/shopping-list.js";
import { itemName, quantity, timestamp } from "./item-schemas.js";
import { idSchema } from "./validation.js";

export const shoppingListEntryParams = z.object({ hid: idSchema, eid: idSchema }).strict();

const unit = z
  .enum(SHOPPING_UNITS, `must be one of ${SHOPPING_UNITS.join(", ")}`)
  .openapi({ description: "piece (default), portion, bag, g, kg, ml or l" });
const categoryId = idSchema.nullable().openapi({ description: "A category of the household, or null" });
const position = z
  .number("must be a number")
  .int("must be a whole number")
  .min(0, "must be 0 or more")
  .max(SHOPPING_LIST_MAX_ENTRIES, `must be at most ${SHOPPING_LIST_MAX_ENTRIES}`)
  .openapi({
    description:
      "Place in the list, 0 = top. The entry is put there and the entries between its old and new place shift by one, keeping their order; a position past the end means the bottom.",
  });

export const addShoppingListEntryBody = z
  .object({
    name: itemName.optional().openapi({ description: "Required unless fromItemId is given" }),
    quantity: quantity.optional().openapi({
      description:
        "Default 1; with fromItemId and a weight or volume unit, the most the item held in that unit (a used-up item's read from its history). A whole number for portion and bag (400 QUANTITY_NOT_WHOLE), as for items",
    }),
    unit: unit.optional().openapi({ description: "Default piece, or the unit of the fromItemId item" }),
    categoryId: categoryId.optional(),
    checked: z.boolean("must be true or false").optional(),
    position: position.optional().openapi({ description: "Default: the bottom of the list" }),
    fromItemId: idSchema.optional().openapi({
      description:
        "An item of the household (active or archived, e.g. the one just used up) whose name, unit and category the entry takes unless given",
    }),
  })
  .strict()
  .refine((body) => body.name !== undefined || body.fromItemId !== undefined, {
    message: "is required unless fromItemId is given",
    path: ["name"],
  })
  .openapi("AddShoppingListEntryRequest");

export const updateShoppingListEntryBody = z
  .object({
    name: itemName.optional(),
    quantity: quantity.optional().openapi({
      description:
        "A whole number when the entry's unit (after this change) is portion or bag: 400 QUANTITY_NOT_WHOLE otherwise",
    }),
    unit: unit.optional(),
    categoryId: categoryId.optional(),
    checked: z.boolean("must be true or false").optional(),
    position: position.optional(),
  })
  .strict()
  .openapi("UpdateShoppingListEntryRequest", { description: "Any subset; what is left out keeps its value" });

export const stockCheckedEntriesBody = z
  .object({
    freezerId: idSchema,
    compartmentId: idSchema,
    expiresAt: timestamp.nullable().optional().openapi({ description: "Expiry of every new item; default none" }),
  })
  .strict()
  .openapi("StockCheckedEntriesRequest");

export const shoppingListEntryResponse = z
  .object({
    id: z.string(),
    householdId: z.string(),
    name: z.string(),
    quantity: z.number(),
    unit: z.enum(SHOPPING_UNITS),
    categoryId: z.string().nullable(),
    checked: z.boolean(),
    position: z.number().int().openapi({ description: "0 for the first entry, then 1, 2, … without gaps" }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi("ShoppingListEntry");

export const stockedEntriesResponse = z
  .object({
    itemsCreated: z.number().int(),
    items: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        quantity: z.number(),
        freezerId: z.string(),
        compartmentId: z.string(),
      }),
    ),
  })
  .openapi("StockedEntries");

export function toShoppingListEntryResponse(entry: ShoppingListEntry): z.input<typeof shoppingListEntryResponse> {
  return {
    id: entry.id,
    householdId: entry.householdId,
    name: entry.name,
    quantity: entry.quantity,
    unit: entry.unit,
    categoryId: entry.categoryId,
    checked: entry.checked,
    position: entry.position,
    createdAt: entry.createdAt.toISOString(),
    updatedAt: entry.updatedAt.toISOString(),
  };
}
