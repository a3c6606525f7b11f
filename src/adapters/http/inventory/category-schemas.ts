import { z } from "zod";
import "./openapi.js";
import { DEFAULT_CATEGORIES, type ItemCategory } from "../../../domain/inventory/item-category.js";
import { position } from "./freezer-schemas.js";
import { idSchema } from "./validation.js";

/** A category's name: unique per household ignoring case. */
export const categoryName = z
  .string("must be a string")
  .trim()
  .min(1, "must not be empty")
  .max(60, "must be at most 60 characters");

export const categoryParams = z.object({ hid: idSchema, cid: idSchema }).strict();

export const createCategoryBody = z
  .object({
    name: categoryName,
    position: position.optional().openapi({ description: "Default: after the household's last category" }),
  })
  .strict()
  .openapi("CreateCategoryRequest");

export const updateCategoryBody = z
  .object({ name: categoryName.optional(), position: position.optional() })
  .strict()
  .openapi("UpdateCategoryRequest", {
    description: "Renaming a default category ends its `key`: apps then show the name as the owner wrote it",
  });

export const categoryResponse = z
  .object({
    id: z.string(),
    householdId: z.string(),
    key: z
      .enum(DEFAULT_CATEGORIES.map((category) => category.key) as [string, ...string[]])
      .nullable()
      .describe("Which default this category is, for apps to show it translated; null once renamed or for added ones"),
    name: z.string().describe("The name as stored (English for defaults); unique per household ignoring case"),
    position: z.number().int(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi("Category");

export function toCategoryResponse(category: ItemCategory): z.input<typeof categoryResponse> {
  return {
    id: category.id,
    householdId: category.householdId,
    key: category.key,
    name: category.name,
    position: category.position,
    createdAt: category.createdAt.toISOString(),
    updatedAt: category.updatedAt.toISOString(),
  };
}
