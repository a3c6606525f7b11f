import type { InventoryUseCases } from "../../../application/inventory/inventory-use-cases.js";
import {
  acceptInviteBody,
  createHouseholdBody,
  householdDetailResponse,
  householdParams,
  householdResponse,
  inviteParams,
  inviteResponse,
  memberParams,
  transferOwnershipBody,
  updateHouseholdBody,
} from "./household-schemas.js";
import { messageResponseSchema } from "./openapi.js";
import { defineRoute, type RouteDefinition } from "./routes.js";
import { z } from "zod";

/** /households, members, ownership and invites. */
export function householdRoutes(useCases: InventoryUseCases): RouteDefinition[] {
  // One invite acceptance under two paths; the household id of the longer one is ignored.
  const acceptInvite = {
    method: "post" as const,
    tags: ["Invites"],
    body: acceptInviteBody,
    status: 200,
    response: householdResponse,
    errors: [404, 409, 410],
    handler: ({ userId, body }: { userId: string; body: z.infer<typeof acceptInviteBody> }) =>
      useCases.acceptInvite.execute({ userId, code: body.code }),
  };
  return [
    defineRoute({
      method: "post",
      path: "/households",
      summary: "Create a household; the caller becomes its owner",
      tags: ["Households"],
      body: createHouseholdBody,
      status: 201,
      response: householdResponse,
      handler: ({ userId, body }) => useCases.createHousehold.execute({ userId, ...body }),
    }),
    defineRoute({
      method: "get",
      path: "/households",
      summary: "Households the caller belongs to",
      tags: ["Households"],
      status: 200,
      response: z.array(householdResponse),
      handler: ({ userId }) => useCases.listHouseholds.execute({ userId }),
    }),
    // Before /households/{hid}/...: the household id in this path is ignored, and the
    // caller is by definition not yet a member, so no household guard applies.
    defineRoute({
      ...acceptInvite,
      path: "/households/{hid}/invites/accept",
      summary: "Accept an invite (the household id in the path is ignored)",
      params: z.object({ hid: z.string() }),
    }),
    defineRoute({ ...acceptInvite, path: "/invites/accept", summary: "Accept an invite and join its household" }),
    defineRoute({
      method: "get",
      path: "/households/{hid}",
      summary: "A household with its members (ordered by joinedAt)",
      tags: ["Households"],
      params: householdParams,
      access: "member",
      status: 200,
      response: householdDetailResponse,
      handler: ({ userId, params }) => useCases.getHousehold.execute({ userId, householdId: params.hid }),
    }),
    defineRoute({
      method: "patch",
      path: "/households/{hid}",
      summary: "Rename a household (owner)",
      tags: ["Households"],
      params: householdParams,
      access: "owner",
      body: updateHouseholdBody,
      status: 200,
      response: householdResponse,
      handler: ({ userId, params, body }) =>
        useCases.updateHousehold.execute({ userId, householdId: params.hid, ...body }),
    }),
    defineRoute({
      method: "delete",
      path: "/households/{hid}",
      summary: "Delete a household and everything in it (owner)",
      tags: ["Households"],
      params: householdParams,
      access: "owner",
      status: 200,
      response: messageResponseSchema,
      handler: ({ userId, params }) => useCases.deleteHousehold.execute({ userId, householdId: params.hid }),
    }),
    defineRoute({
      method: "delete",
      path: "/households/{hid}/members/{uid}",
      summary: "Remove a member (owner); 400 for the owner",
      tags: ["Members"],
      params: memberParams,
      access: "owner",
      status: 200,
      response: messageResponseSchema,
      errors: [404],
      handler: ({ userId, params }) =>
        useCases.removeMember.execute({ userId, householdId: params.hid, memberUserId: params.uid }),
    }),
    defineRoute({
      method: "post",
      path: "/households/{hid}/leave",
      summary: "Leave a household (members; the owner gets 400)",
      tags: ["Members"],
      params: householdParams,
      access: "member",
      status: 200,
      response: messageResponseSchema,
      handler: ({ userId, params }) => useCases.leaveHousehold.execute({ userId, householdId: params.hid }),
    }),
    defineRoute({
      method: "patch",
      path: "/households/{hid}/transfer",
      summary: "Transfer ownership to another member (owner)",
      tags: ["Members"],
      params: householdParams,
      access: "owner",
      body: transferOwnershipBody,
      status: 200,
      response: householdResponse,
      handler: ({ userId, params, body }) =>
        useCases.transferOwnership.execute({ userId, householdId: params.hid, newOwnerId: body.newOwnerId }),
    }),
    defineRoute({
      method: "post",
      path: "/households/{hid}/invites",
      summary: "Create a single-use invite valid for 7 days (owner)",
      tags: ["Invites"],
      params: householdParams,
      access: "owner",
      status: 201,
      response: inviteResponse,
      handler: ({ userId, params }) => useCases.createInvite.execute({ userId, householdId: params.hid }),
    }),
    defineRoute({
      method: "get",
      path: "/households/{hid}/invites",
      summary: "Active (unused, unexpired) invites (owner)",
      tags: ["Invites"],
      params: householdParams,
      access: "owner",
      status: 200,
      response: z.array(inviteResponse),
      handler: ({ userId, params }) => useCases.listInvites.execute({ userId, householdId: params.hid }),
    }),
    defineRoute({
      method: "delete",
      path: "/households/{hid}/invites/{inviteId}",
      summary: "Revoke an invite (owner)",
      tags: ["Invites"],
      params: inviteParams,
      access: "owner",
      status: 200,
      response: messageResponseSchema,
      errors: [404],
      handler: ({ userId, params }) =>
        useCases.revokeInvite.execute({ userId, householdId: params.hid, inviteId: params.inviteId }),
    }),
  ];
}
