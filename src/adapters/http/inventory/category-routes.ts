import { z } from "zod";
import type { InventoryUseCases } from "../../../application/inventory/inventory-use-cases.js";
import {
  categoryParams,
  categoryResponse,
  createCategoryBody,
  toCategoryResponse,
  updateCategoryBody,
} from "./category-schemas.js";
import { householdParams } from "./household-schemas.js";
import { defineRoute, type RouteDefinition } from "./routes.js";

const TAGS = ["Categories"];

/** /households/{hid}/categories: every member reads them, the owner changes them. */
export function categoryRoutes(useCases: InventoryUseCases): RouteDefinition[] {
  return [
    defineRoute({
      method: "get",
      path: "/households/{hid}/categories",
      summary: "The household's item categories, in display order",
      description:
        "Defaults (meat, fish, vegetables, fruit, baked goods, ready meals, ice cream, herbs, other) carry a `key` until renamed, for apps to show them in the reader's language.",
      tags: TAGS,
      params: householdParams,
      access: "member",
      status: 200,
      response: z.array(categoryResponse),
      handler: async ({ userId, params }) =>
        (await useCases.listCategories.execute({ userId, householdId: params.hid })).map(toCategoryResponse),
    }),
    defineRoute({
      method: "post",
      path: "/households/{hid}/categories",
      summary: "Add a category (owner); 409 when the household has one of that name",
      tags: TAGS,
      params: householdParams,
      access: "owner",
      body: createCategoryBody,
      status: 201,
      response: categoryResponse,
      errors: [409],
      handler: async ({ userId, params, body }) =>
        toCategoryResponse(await useCases.createCategory.execute({ userId, householdId: params.hid, ...body })),
    }),
    defineRoute({
      method: "patch",
      path: "/households/{hid}/categories/{cid}",
      summary: "Rename or reorder a category (owner); 409 when the new name is taken",
      tags: TAGS,
      params: categoryParams,
      access: "owner",
      body: updateCategoryBody,
      status: 200,
      response: categoryResponse,
      errors: [404, 409],
      handler: async ({ userId, params, body }) =>
        toCategoryResponse(
          await useCases.updateCategory.execute({ userId, householdId: params.hid, categoryId: params.cid, ...body }),
        ),
    }),
    defineRoute({
      method: "delete",
      path: "/households/{hid}/categories/{cid}",
      summary: "Delete a category (owner); its items stay, without a category (categoryId null)",
      tags: TAGS,
      params: categoryParams,
      access: "owner",
      status: 200,
      response: z.object({ message: z.string(), itemsUncategorised: z.number().int() }).openapi("CategoryDeleted"),
      errors: [404],
      handler: ({ userId, params }) =>
        useCases.deleteCategory.execute({ userId, householdId: params.hid, categoryId: params.cid }),
    }),
  ];
}
