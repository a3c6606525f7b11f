import { z } from "zod";
import "./openapi.js";
import type { ChangeLogEntryView } from "../../../domain/inventory/change-log-entry.js";
import { type FreezerItemView, ITEM_SORT_FIELDS } from "../../../domain/inventory/freezer-item.js";
import { userResponse } from "./account-schemas.js";
import { idSchema, queryInteger } from "./validation.js";
import { nullableBarcode } from "./barcode-schemas.js";
import { ITEM_UNITS, WHOLE_NUMBER_UNITS } from "../../../domain/inventory/item-unit.js";

/** The unit of a quantity: one of the fixed list. */
export const itemUnit = z.enum(ITEM_UNITS, `must be one of ${ITEM_UNITS.join(", ")}`).openapi({
  description: `What the quantity counts. Default piece. ${WHOLE_NUMBER_UNITS.join(" and ")} take whole numbers; piece (as before units), g, kg, ml and l take fractions`,
});

const categoryIdField = idSchema
  .nullable()
  .openapi({ type: ["string", "null"], description: "A category of the household (GET …/categories), or null" });

const ISO_TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

/**
 * Calendar dates and date-times of the years 0001–9999. A date-time without a zone is read as
 * UTC, a bare date as its UTC midnight. Out-of-range parts (February 30th, 25 o'clock, year 0)
 * are rejected rather than rolled over the way Date would.
 */
function parseTimestamp(text: string): Date | undefined {
  const match = ISO_TIMESTAMP.exec(text);
  if (!match) return undefined;
  const [, year, month, day, hour = "0", minute = "0", second = "0", zone] = match;
  const daysInMonth = new Date(Date.UTC(Number(year), Number(month), 0)).getUTCDate();
  if (Number(month) < 1 || Number(month) > 12 || Number(day) < 1 || Number(day) > daysInMonth) return undefined;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return undefined;
  const date = new Date(match[4] !== undefined && zone === undefined ? `${text}Z` : text);
  if (Number.isNaN(date.getTime())) return undefined;
  // Year 0 does not exist in PostgreSQL's calendar (1 BC precedes AD 1) and PGlite refuses it;
  // checked on the UTC moment, since an offset can move it across a year boundary.
  const utcYear = date.getUTCFullYear();
  return utcYear < 1 || utcYear > 9999 ? undefined : date;
}

export const timestamp = z
  .string("must be an ISO-8601 timestamp")
  .refine((text) => parseTimestamp(text) !== undefined, "must be an ISO-8601 timestamp, e.g. 2026-12-24T18:00:00Z")
  .transform((text) => parseTimestamp(text) as Date)
  .openapi({ type: "string", format: "date-time", example: "2026-12-24T18:00:00.000Z" });

const nullableTimestamp = timestamp.nullable().openapi({ type: ["string", "null"], format: "date-time" });

export const itemName = z
  .string("must be a string")
  .trim()
  .min(1, "must not be empty")
  .max(200, "must be at most 200 characters");
export const quantity = z
  .number("must be a number")
  .positive("must be greater than 0")
  .max(1_000_000, "must be at most 1000000");
export const notes = z.string("must be a string").max(2000, "must be at most 2000 characters").nullable();

export const itemParams = z.object({ hid: idSchema, iid: idSchema }).strict();

export const createItemBody = z
  .object({
    name: itemName,
    quantity,
    freezerId: idSchema,
    compartmentId: idSchema,
    notes: notes.optional(),
    unit: itemUnit.optional(),
    categoryId: categoryIdField.optional(),
    storedAt: nullableTimestamp.optional().openapi({ description: "Defaults to now" }),
    expiresAt: nullableTimestamp.optional(),
    barcode: nullableBarcode.optional(),
  })
  .strict()
  .openapi("CreateItemRequest");

export const updateItemBody = z
  .object({
    name: itemName.optional(),
    quantity: quantity.optional(),
    freezerId: idSchema.optional(),
    compartmentId: idSchema.optional(),
    notes: notes.optional(),
    storedAt: nullableTimestamp.optional(),
    expiresAt: nullableTimestamp.optional(),
    barcode: nullableBarcode.optional(),
    unit: itemUnit.optional(),
    categoryId: categoryIdField.optional(),
  })
  .strict()
  .openapi("UpdateItemRequest", {
    description: "Any subset of the create fields; moving freezers needs a compartmentId of the new freezer",
  });

/** `compartmentIds[]=a&compartmentIds[]=b`, `compartmentIds=a&compartmentIds=b` or `compartmentIds=a,b`. */
const compartmentIdList = z
  .union([z.string(), z.array(z.string())])
  .transform((value) =>
    (Array.isArray(value) ? value : [value])
      .flatMap((entry) => entry.split(","))
      .map((entry) => entry.trim())
      .filter((entry) => entry.length > 0),
  )
  .pipe(z.array(idSchema).max(100, "at most 100 compartments"))
  .openapi({ type: "array", items: { type: "string" } });

const pageNumber = queryInteger({ min: 1, max: 1_000_000 });

/** `categoryId=<id>` for one category's items, `categoryId=none` for uncategorised ones (null inside). */
const categoryFilter = z
  .union([z.literal("none"), idSchema], "must be a category id or none")
  .transform((value) => (value === "none" ? null : value))
  .optional()
  .openapi({ type: "string", description: "A category's id, or `none` for items without a category" });

export const listItemsQuery = z
  .object({
    freezerId: idSchema.optional(),
    "compartmentIds[]": compartmentIdList
      .optional()
      .openapi({ description: "Repeat the key for several compartments" }),
    compartmentIds: compartmentIdList
      .optional()
      .openapi({ description: "Alternative form: repeated or comma-separated" }),
    search: z
      .string("must be a single string")
      .max(200, "must be at most 200 characters")
      .optional()
      .openapi({ description: "Word prefixes of the name; case- and accent-insensitive; all words must match" }),
    expiresBefore: timestamp.optional().openapi({ description: "Only items expiring before this moment" }),
    categoryId: categoryFilter,
    page: pageNumber.optional().default(1),
    limit: queryInteger({ min: 1, max: 100 }).optional().default(20),
    sort: z
      .enum(ITEM_SORT_FIELDS, `must be one of ${ITEM_SORT_FIELDS.join(", ")}`)
      .optional()
      .openapi({ description: "Default createdAt; with a search, relevance then name" }),
    order: z.enum(["asc", "desc"], "must be asc or desc").optional().openapi({ description: "Default desc" }),
  })
  .strict();

export type ListItemsQuery = z.output<typeof listItemsQuery>;

export const consumeItemBody = z
  .object({
    quantity,
    unit: itemUnit.optional().openapi({
      description: "The unit of quantity; default the item's. g and kg convert into each other, as do ml and l",
    }),
  })
  .strict()
  .openapi("ConsumeItemRequest", {
    description: "How much to take out (250 g of an item of 1 kg leaves 0.75 kg); at most what is left",
  });

export const expiringItemsQuery = z
  .object({
    days: queryInteger({ min: 0, max: 3650 })
      .optional()
      .default(3)
      .openapi({ description: "Expiring within this many days (default 3); expired items are always listed" }),
    categoryId: categoryFilter,
    page: pageNumber.optional().default(1),
    limit: queryInteger({ min: 1, max: 100 }).optional().default(20),
  })
  .strict();

/**
 * The archive's query: none of these keeps the spec's plain array of every archived item;
 * any of them answers one page, shaped like the item list.
 */
export const listArchiveQuery = z
  .object({
    search: listItemsQuery.shape.search,
    page: pageNumber.optional(),
    limit: queryInteger({ min: 1, max: 100 }).optional(),
  })
  .strict();

const isoString = z.iso.datetime();

/** Where the API is mounted; photo URLs are absolute paths on the API's own origin. */
const PHOTO_URL_BASE = "/api/v1";

export const itemPhotoResponse = z
  .object({
    thumbUrl: z.string().openapi({ description: "The list thumbnail (JPEG, 256×256); carries the photo's version" }),
    url: z.string().openapi({ description: "The display size (JPEG, longest side 1280); carries the photo's version" }),
    updatedAt: isoString,
  })
  .openapi("ItemPhoto", {
    description:
      "The item's photo. Both URLs need the same authentication as the item and change whenever the photo does, so a client may cache them for good.",
  });

/** The photo of an item as its JSON shows it: null without one. */
export function toItemPhotoResponse(item: FreezerItemView): z.input<typeof itemPhotoResponse> | null {
  if (!item.photoUpdatedAt) return null;
  const path = `${PHOTO_URL_BASE}/households/${encodeURIComponent(item.householdId)}/items/${encodeURIComponent(item.id)}/photo`;
  const version = item.photoUpdatedAt.getTime();
  return {
    thumbUrl: `${path}?size=thumb&v=${version}`,
    url: `${path}?size=display&v=${version}`,
    updatedAt: item.photoUpdatedAt.toISOString(),
  };
}

export const itemResponse = z
  .object({
    id: z.string(),
    householdId: z.string(),
    freezerId: z.string(),
    compartmentId: z.string(),
    name: z.string(),
    quantity: z.number(),
    unit: z.enum(ITEM_UNITS),
    categoryId: z.string().nullable(),
    notes: z.string().nullable(),
    storedAt: isoString.nullable(),
    expiresAt: isoString.nullable(),
    barcode: z.string().nullable(),
    deletedAt: isoString.nullable(),
    createdAt: isoString,
    updatedAt: isoString,
    createdBy: userResponse,
    updatedBy: userResponse,
    photo: itemPhotoResponse.nullable(),
  })
  .openapi("FreezerItem");

export const itemPageResponse = z
  .object({
    data: z.array(itemResponse),
    total: z.number().int().describe("Every match of the query, not just this page: always an exact count."),
    page: z.number().int(),
    limit: z.number().int(),
  })
  .openapi("FreezerItemPage");

export const changeLogEntryResponse = z
  .object({
    id: z.string(),
    itemId: z.string(),
    fieldName: z.string(),
    oldValue: z.string().nullable(),
    newValue: z.string().nullable(),
    changedAt: isoString,
    changedBy: userResponse,
  })
  .openapi("ChangeLogEntry");

export type ItemResponse = z.input<typeof itemResponse>;
export type ChangeLogEntryResponse = z.input<typeof changeLogEntryResponse>;

function iso(date: Date | null): string | null {
  return date === null ? null : date.toISOString();
}

/** A page of items as the list routes answer it. */
export function toItemPageResponse(page: { data: FreezerItemView[]; total: number; page: number; limit: number }) {
  return {
    data: page.data.map(toItemResponse),
    total: page.total,
    page: page.page,
    limit: page.limit,
  };
}

/** The exact FreezerItemResponse of the spec (no internal fields such as createdById). */
export function toItemResponse(item: FreezerItemView): ItemResponse {
  return {
    id: item.id,
    householdId: item.householdId,
    freezerId: item.freezerId,
    compartmentId: item.compartmentId,
    name: item.name,
    quantity: item.quantity,
    unit: item.unit,
    categoryId: item.categoryId,
    notes: item.notes,
    storedAt: iso(item.storedAt),
    expiresAt: iso(item.expiresAt),
    barcode: item.barcode,
    deletedAt: iso(item.deletedAt),
    createdAt: item.createdAt.toISOString(),
    updatedAt: item.updatedAt.toISOString(),
    createdBy: { id: item.createdBy.id, email: item.createdBy.email, name: item.createdBy.name },
    updatedBy: { id: item.updatedBy.id, email: item.updatedBy.email, name: item.updatedBy.name },
    photo: toItemPhotoResponse(item),
  };
}

export function toChangeLogEntryResponse(entry: ChangeLogEntryView): ChangeLogEntryResponse {
  return {
    id: entry.id,
    itemId: entry.itemId,
    fieldName: entry.fieldName,
    oldValue: entry.oldValue,
    newValue: entry.newValue,
    changedAt: entry.changedAt.toISOString(),
    changedBy: { id: entry.changedBy.id, email: entry.changedBy.email, name: entry.changedBy.name },
  };
}
