import { z } from "zod";
import type { ShoppingListUseCases } from "../../../application/inventory/shopping-list/shopping-list-use-cases.js";
import { SHOPPING_LIST_MAX_ENTRIES } from "../../../domain/inventory/shopping-list.js";
import { householdParams } from "./household-schemas.js";
import { messageResponseSchema } from "./openapi.js";
import { defineRoute, RouteAnswer, type RouteDefinition } from "./routes.js";
import {
  addShoppingListEntryBody,
  shoppingListEntryParams,
  shoppingListEntryResponse,
  stockCheckedEntriesBody,
  stockedEntriesResponse,
  toShoppingListEntryResponse,
  updateShoppingListEntryBody,
} from "./shopping-list-schemas.js";

const PATH = "/households/{hid}/shopping-list";

/** The household's shared shopping list, described once for express and OpenAPI. */
export function shoppingListRoutes(useCases: ShoppingListUseCases): RouteDefinition[] {
  return [
    defineRoute({
      method: "get",
      path: PATH,
      summary: "The household's shopping list, in its order (position 0 first)",
      tags: ["Shopping list"],
      params: householdParams,
      access: "member",
      status: 200,
      response: z.array(shoppingListEntryResponse),
      handler: async ({ userId, params }) =>
        (await useCases.listShoppingList.execute({ userId, householdId: params.hid })).map(toShoppingListEntryResponse),
    }),
    defineRoute({
      method: "post",
      path: PATH,
      summary: "Put an entry on the shopping list (at the bottom unless a position is given)",
      description: `An unchecked entry of the same name (ignoring case and spaces at the ends) and unit already on the list gets the quantity added instead of a second entry: 200 with that entry (moved to position if one is given), shopping_list.updated; a new entry is 201, shopping_list.added. An addition with checked: true is always a new entry. A list holds at most ${SHOPPING_LIST_MAX_ENTRIES} entries; one more is refused with 409 SHOPPING_LIST_FULL. With fromItemId the entry takes the name, unit and category of that item of the household unless given ("put on the shopping list" after taking the last one out); an item id of another household is 404. Without quantity, an item in g, kg, ml or l goes on the list as the most it held in its unit (a used-up item's from its history, e.g. 500 g of mince, not 1 g), converted to the given unit of the same measure; pieces, portions and bags as 1.`,
      tags: ["Shopping list"],
      params: householdParams,
      access: "member",
      body: addShoppingListEntryBody,
      status: 201,
      alsoAnswers: {
        200: "Added to an unchecked entry of the same name and unit already on the list (its quantity grew)",
      },
      response: shoppingListEntryResponse,
      errors: [404, 409],
      handler: async ({ userId, params, body }) => {
        const { entry, added } = await useCases.addShoppingListEntry.execute({
          userId,
          householdId: params.hid,
          ...body,
        });
        return added ? toShoppingListEntryResponse(entry) : new RouteAnswer(200, toShoppingListEntryResponse(entry));
      },
    }),
    defineRoute({
      method: "post",
      path: `${PATH}/checked/stock`,
      summary: "After shopping: turn every checked entry into an item of one compartment and take it off the list",
      description:
        "One transaction: every checked entry becomes an item (its name and quantity, frozen now) and leaves the list, or nothing happens. 409 NO_CHECKED_ENTRIES when none is checked; 400 when the freezer or compartment is not the household's, and 400 QUANTITY_NOT_WHOLE naming a checked entry of fractional portions or bags (written before entries had to be whole numbers; correct it first).",
      tags: ["Shopping list"],
      params: householdParams,
      access: "member",
      body: stockCheckedEntriesBody,
      status: 201,
      response: stockedEntriesResponse,
      errors: [409],
      handler: async ({ userId, params, body }) => {
        const { items } = await useCases.stockCheckedEntries.execute({ userId, householdId: params.hid, ...body });
        return {
          itemsCreated: items.length,
          items: items.map((item) => ({
            id: item.id,
            name: item.name,
            quantity: item.quantity,
            freezerId: item.freezerId,
            compartmentId: item.compartmentId,
          })),
        };
      },
    }),
    defineRoute({
      method: "patch",
      path: `${PATH}/{eid}`,
      summary: "Change an entry (check it off, rename it, …) or move it to another position",
      description:
        "A move puts the entry at `position` (0 = top, past the end = bottom) and shifts the entries between its old and new place by one; positions stay 0…n-1. Writes of one list run one after the other, so two members reordering at once leave one consistent order (the later write wins where they disagree).",
      tags: ["Shopping list"],
      params: shoppingListEntryParams,
      access: "member",
      body: updateShoppingListEntryBody,
      status: 200,
      response: shoppingListEntryResponse,
      errors: [404],
      handler: async ({ userId, params, body }) =>
        toShoppingListEntryResponse(
          await useCases.updateShoppingListEntry.execute({
            userId,
            householdId: params.hid,
            entryId: params.eid,
            ...body,
          }),
        ),
    }),
    defineRoute({
      method: "delete",
      path: `${PATH}/{eid}`,
      summary: "Take an entry off the list; the entries below it move up one place",
      tags: ["Shopping list"],
      params: shoppingListEntryParams,
      access: "member",
      status: 200,
      response: messageResponseSchema,
      errors: [404],
      handler: ({ userId, params }) =>
        useCases.removeShoppingListEntry.execute({ userId, householdId: params.hid, entryId: params.eid }),
    }),
  ];
}
