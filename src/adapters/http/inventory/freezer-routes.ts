import { z } from "zod";
import type { InventoryUseCases } from "../../../application/inventory/inventory-use-cases.js";
import {
  compartmentParams,
  compartmentResponse,
  createCompartmentBody,
  createFreezerBody,
  freezerDetailResponse,
  freezerParams,
  freezerResponse,
  updateCompartmentBody,
  updateFreezerBody,
} from "./freezer-schemas.js";
import { householdParams } from "./household-schemas.js";
import { messageResponseSchema } from "./openapi.js";
import { defineRoute, type RouteDefinition } from "./routes.js";

/** /households/{hid}/freezers and their compartments. */
export function freezerRoutes(useCases: InventoryUseCases): RouteDefinition[] {
  return [
    defineRoute({
      method: "post",
      path: "/households/{hid}/freezers",
      summary: "Add a freezer",
      tags: ["Freezers"],
      params: householdParams,
      access: "member",
      body: createFreezerBody,
      status: 201,
      response: freezerResponse,
      handler: ({ userId, params, body }) =>
        useCases.createFreezer.execute({ userId, householdId: params.hid, ...body }),
    }),
    defineRoute({
      method: "get",
      path: "/households/{hid}/freezers",
      summary: "Freezers of the household",
      tags: ["Freezers"],
      params: householdParams,
      access: "member",
      status: 200,
      response: z.array(freezerResponse),
      handler: ({ userId, params }) => useCases.listFreezers.execute({ userId, householdId: params.hid }),
    }),
    defineRoute({
      method: "get",
      path: "/households/{hid}/freezers/{fid}",
      summary: "A freezer with its compartments (ordered by position)",
      tags: ["Freezers"],
      params: freezerParams,
      access: "member",
      status: 200,
      response: freezerDetailResponse,
      errors: [404],
      handler: ({ userId, params }) =>
        useCases.getFreezer.execute({ userId, householdId: params.hid, freezerId: params.fid }),
    }),
    defineRoute({
      method: "patch",
      path: "/households/{hid}/freezers/{fid}",
      summary: "Rename, describe or reorder a freezer",
      tags: ["Freezers"],
      params: freezerParams,
      access: "member",
      body: updateFreezerBody,
      status: 200,
      response: freezerResponse,
      errors: [404],
      handler: ({ userId, params, body }) =>
        useCases.updateFreezer.execute({ userId, householdId: params.hid, freezerId: params.fid, ...body }),
    }),
    defineRoute({
      method: "delete",
      path: "/households/{hid}/freezers/{fid}",
      summary: "Delete an empty freezer and its compartments (owner); 409 while it holds items",
      tags: ["Freezers"],
      params: freezerParams,
      access: "owner",
      status: 200,
      response: messageResponseSchema,
      errors: [404, 409],
      handler: ({ userId, params }) =>
        useCases.deleteFreezer.execute({ userId, householdId: params.hid, freezerId: params.fid }),
    }),
    defineRoute({
      method: "post",
      path: "/households/{hid}/freezers/{fid}/compartments",
      summary: "Add a compartment",
      tags: ["Compartments"],
      params: freezerParams,
      access: "member",
      body: createCompartmentBody,
      status: 201,
      response: compartmentResponse,
      errors: [404],
      handler: ({ userId, params, body }) =>
        useCases.createCompartment.execute({ userId, householdId: params.hid, freezerId: params.fid, ...body }),
    }),
    defineRoute({
      method: "get",
      path: "/households/{hid}/freezers/{fid}/compartments",
      summary: "Compartments ordered by position, then name",
      tags: ["Compartments"],
      params: freezerParams,
      access: "member",
      status: 200,
      response: z.array(compartmentResponse),
      errors: [404],
      handler: ({ userId, params }) =>
        useCases.listCompartments.execute({ userId, householdId: params.hid, freezerId: params.fid }),
    }),
    defineRoute({
      method: "get",
      path: "/households/{hid}/freezers/{fid}/compartments/{cid}",
      summary: "One compartment",
      tags: ["Compartments"],
      params: compartmentParams,
      access: "member",
      status: 200,
      response: compartmentResponse,
      errors: [404],
      handler: ({ userId, params }) =>
        useCases.getCompartment.execute({
          userId,
          householdId: params.hid,
          freezerId: params.fid,
          compartmentId: params.cid,
        }),
    }),
    defineRoute({
      method: "patch",
      path: "/households/{hid}/freezers/{fid}/compartments/{cid}",
      summary: "Rename or reorder a compartment",
      tags: ["Compartments"],
      params: compartmentParams,
      access: "member",
      body: updateCompartmentBody,
      status: 200,
      response: compartmentResponse,
      errors: [404],
      handler: ({ userId, params, body }) =>
        useCases.updateCompartment.execute({
          userId,
          householdId: params.hid,
          freezerId: params.fid,
          compartmentId: params.cid,
          ...body,
        }),
    }),
    defineRoute({
      method: "delete",
      path: "/households/{hid}/freezers/{fid}/compartments/{cid}",
      summary: "Delete an empty compartment (owner); 409 while it holds items",
      tags: ["Compartments"],
      params: compartmentParams,
      access: "owner",
      status: 200,
      response: messageResponseSchema,
      errors: [404, 409],
      handler: ({ userId, params }) =>
        useCases.deleteCompartment.execute({
          userId,
          householdId: params.hid,
          freezerId: params.fid,
          compartmentId: params.cid,
        }),
    }),
  ];
}
