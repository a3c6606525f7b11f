import type { HouseholdAccess } from "../../../application/inventory/household-access.js";
import express, { type RequestHandler, type Response, type Router } from "express";
import { type FreezerItemView, itemVersion } from "../../../domain/inventory/freezer-item.js";
import { ItemChangedError } from "../../../domain/inventory/item-errors.js";
import { HttpErrorWithBody } from "./http-errors.js";
import { z } from "zod";
import type { ItemUseCases } from "../../../application/inventory/items/item-use-cases.js";
import { householdParams } from "./household-schemas.js";
import {
  changeLogEntryResponse,
  consumeItemBody,
  createItemBody,
  expiringItemsQuery,
  itemPageResponse,
  itemParams,
  type ItemResponse,
  itemResponse,
  type ListItemsQuery,
  listArchiveQuery,
  listItemsQuery,
  toChangeLogEntryResponse,
  toItemPageResponse,
  toItemResponse,
  updateItemBody,
} from "./item-schemas.js";
import { messageResponseSchema, type OpenAPIRegistry } from "./openapi.js";
import { defineRoute, mountRoutes, type RouteDefinition, registerRoutes } from "./routes.js";

/** Where the app mounts the items router; route paths below are written in full for the OpenAPI document. */
export const ITEMS_PATH = "/households/{hid}/items";

/** HTTP statuses of the item error codes, added to the one mapping table. */
const TAGS = ["Items"];

function compartmentFilter(query: ListItemsQuery): string[] | undefined {
  const ids = [...(query["compartmentIds[]"] ?? []), ...(query.compartmentIds ?? [])];
  return ids.length > 0 ? [...new Set(ids)] : undefined;
}

/** The item routes, described once for both express and the OpenAPI document. */
export function itemRoutes(useCases: ItemUseCases): RouteDefinition[] {
  return [
    defineRoute({
      method: "post",
      path: ITEMS_PATH,
      summary: "Put an item into a compartment of one of the household's freezers",
      tags: TAGS,
      params: householdParams,
      access: "member",
      body: createItemBody,
      status: 201,
      response: itemResponse,
      handler: async ({ userId, params, body }) =>
        toItemResponse(await useCases.createItem.execute({ householdId: params.hid, userId, ...body })),
    }),
    defineRoute({
      method: "get",
      path: ITEMS_PATH,
      summary: "Active items: filters, full-text search, sorting, pages",
      tags: TAGS,
      params: householdParams,
      access: "member",
      query: listItemsQuery,
      status: 200,
      response: itemPageResponse,
      handler: async ({ userId, params, query }) => {
        const page = await useCases.listItems.execute({
          userId,
          householdId: params.hid,
          freezerId: query.freezerId,
          compartmentIds: compartmentFilter(query),
          categoryId: query.categoryId,
          search: query.search,
          expiresBefore: query.expiresBefore,
          sort: query.sort,
          order: query.order,
          page: query.page,
          limit: query.limit,
        });
        return toItemPageResponse(page);
      },
    }),
    defineRoute({
      method: "get",
      path: `${ITEMS_PATH}/archive`,
      summary:
        "Archived items, most recently archived first: a plain array of all of them, or, with page, limit or search, one page shaped like the item list",
      tags: TAGS,
      params: householdParams,
      access: "member",
      query: listArchiveQuery,
      status: 200,
      response: z.union([z.array(itemResponse), itemPageResponse]),
      handler: async ({ userId, params, query }) => {
        if (query.page === undefined && query.limit === undefined && query.search === undefined) {
          return (await useCases.listArchivedItems.execute({ householdId: params.hid, userId })).map(toItemResponse);
        }
        const page = await useCases.listArchivedItems.page({
          userId,
          householdId: params.hid,
          search: query.search,
          page: query.page ?? 1,
          limit: query.limit ?? 20,
        });
        return toItemPageResponse(page);
      },
    }),
    defineRoute({
      method: "get",
      path: `${ITEMS_PATH}/expiring`,
      summary:
        "Active items expiring within `days` days (default 3) and those already expired, soonest first, paged like the item list",
      tags: TAGS,
      params: householdParams,
      access: "member",
      query: expiringItemsQuery,
      status: 200,
      response: itemPageResponse,
      handler: async ({ userId, params, query }) => {
        const page = await useCases.listExpiringItems.execute({ householdId: params.hid, userId, ...query });
        return toItemPageResponse(page);
      },
    }),
    defineRoute({
      method: "post",
      path: `${ITEMS_PATH}/{iid}/consume`,
      summary:
        "Take units out of an active item; the history records the quantity change as a PATCH does, and at zero the item is archived as used up. 400 when fewer are left",
      tags: TAGS,
      params: itemParams,
      access: "member",
      body: consumeItemBody,
      status: 200,
      response: itemResponse,
      errors: [404, 409],
      handler: async ({ userId, params, body }) =>
        toItemResponse(
          await useCases.consumeItem.execute({
            householdId: params.hid,
            itemId: params.iid,
            userId,
            quantity: body.quantity,
            unit: body.unit,
          }),
        ),
    }),
    defineRoute({
      method: "get",
      path: `${ITEMS_PATH}/{iid}`,
      summary: "One item, active or archived",
      tags: TAGS,
      params: itemParams,
      access: "member",
      status: 200,
      response: itemResponse,
      errors: [404],
      handler: async ({ userId, params, res }) =>
        withEtag(res, await useCases.getItem.execute({ householdId: params.hid, itemId: params.iid, userId })),
    }),
    defineRoute({
      method: "patch",
      path: `${ITEMS_PATH}/{iid}`,
      summary: "Change any subset of an active item's fields; each changed field goes into its history",
      description:
        'Optional `If-Match: "<updatedAt as the item JSON shows it>"` (the `ETag` of GET and PATCH): when the item ' +
        "has changed since, nothing is written and the answer is 412 ITEM_CHANGED with the current item in the " +
        "body's `item` field (and its ETag). `*` or no If-Match: the edit applies to whatever the item is now.",
      tags: TAGS,
      params: itemParams,
      access: "member",
      body: updateItemBody,
      status: 200,
      response: itemResponse,
      errors: [404, 409, 412],
      handler: async ({ userId, params, body, res }) => {
        const expectedVersions = ifMatchVersions(res.req.headers["if-match"]);
        try {
          const updated = await useCases.updateItem.execute({
            householdId: params.hid,
            itemId: params.iid,
            userId,
            patch: body,
            ...(expectedVersions ? { expectedVersions } : {}),
          });
          return withEtag(res, updated);
        } catch (error) {
          if (!(error instanceof ItemChangedError) || !error.current) throw error;
          throw new HttpErrorWithBody(
            "ITEM_CHANGED",
            error.message,
            { item: toItemResponse(error.current) },
            { ETag: etagOf(error.current) },
          );
        }
      },
    }),
    defineRoute({
      method: "delete",
      path: `${ITEMS_PATH}/{iid}`,
      summary: "Archive an active item (soft delete)",
      tags: TAGS,
      params: itemParams,
      access: "member",
      status: 200,
      response: messageResponseSchema,
      errors: [404, 409],
      handler: async ({ userId, params }) => {
        await useCases.archiveItem.execute({ householdId: params.hid, itemId: params.iid, userId });
        return { message: "Item archived" };
      },
    }),
    defineRoute({
      method: "delete",
      path: `${ITEMS_PATH}/{iid}/permanent`,
      summary: "Delete an archived item for good (owner); 400 when the item is not archived",
      tags: TAGS,
      params: itemParams,
      access: "owner",
      status: 200,
      response: messageResponseSchema,
      errors: [404],
      handler: async ({ userId, params }) => {
        await useCases.deleteItemPermanently.execute({ householdId: params.hid, itemId: params.iid, userId });
        return { message: "Item permanently deleted" };
      },
    }),
    defineRoute({
      method: "post",
      path: `${ITEMS_PATH}/{iid}/restore`,
      summary: "Bring an archived item back into the active list",
      tags: TAGS,
      params: itemParams,
      access: "member",
      status: 200,
      response: itemResponse,
      errors: [404, 409],
      handler: async ({ userId, params }) =>
        toItemResponse(await useCases.restoreItem.execute({ householdId: params.hid, itemId: params.iid, userId })),
    }),
    defineRoute({
      method: "get",
      path: `${ITEMS_PATH}/{iid}/history`,
      summary: "The item's change log: newest first, one change's fields by name",
      tags: TAGS,
      params: itemParams,
      access: "member",
      status: 200,
      response: z.array(changeLogEntryResponse),
      errors: [404],
      handler: async ({ userId, params }) =>
        (await useCases.getItemHistory.execute({ householdId: params.hid, itemId: params.iid, userId })).map(
          toChangeLogEntryResponse,
        ),
    }),
  ];
}

export interface ItemsRouterDependencies {
  useCases: ItemUseCases;
  /** Turns away outsiders before telling them what was wrong with their input. */
  access?: HouseholdAccess;
}

const passThrough: RequestHandler = (_req, _res, next) => next();

/**
 * The items router, for mounting at /api/v1/households/:hid/items behind authentication
 * and path-id validation (which the app applies); the use cases check the membership.
 */
export function createItemsRouter(deps: ItemsRouterDependencies): Router {
  const router = express.Router({ mergeParams: true });
  mountRoutes(router, itemRoutes(deps.useCases), {
    authenticate: passThrough,
    stripPrefix: ITEMS_PATH,
    ...(deps.access ? { access: deps.access } : {}),
  });
  return router;
}

/** Adds the item paths and schemas to the OpenAPI document. */
export function registerItemsOpenApi(registry: OpenAPIRegistry): void {
  registry.register("FreezerItem", itemResponse);
  registry.register("ChangeLogEntry", changeLogEntryResponse);
  // Only the descriptions are read here; no handler runs during registration.
  registerRoutes(registry, itemRoutes({} as ItemUseCases));
}

/** The ETag of an item: its version (updatedAt as its JSON shows it), quoted. */
function etagOf(item: FreezerItemView): string {
  return `"${itemVersion(item)}"`;
}

/** Sends the item's version as ETag, so a client can make its next edit conditional on it. */
function withEtag(res: Response, item: FreezerItemView): ItemResponse {
  res.set("ETag", etagOf(item));
  return toItemResponse(item);
}

/**
 * The versions an If-Match header names; undefined when absent or `*` (any current version).
 * Accepts a comma-separated list, weak tags (W/) and, leniently, unquoted values.
 */
export function ifMatchVersions(header: string | string[] | undefined): string[] | undefined {
  const raw = Array.isArray(header) ? header.join(",") : header;
  if (raw === undefined || raw.trim() === "") return undefined;
  const tags = raw.split(",").map((tag) =>
    tag
      .trim()
      .replace(/^W\//, "")
      .replace(/^"(.*)"$/, "$1"),
  );
  return tags.includes("*") ? undefined : tags.filter((tag) => tag !== "");
}
