import { z } from "zod";
import "./openapi.js";
import { isTimeZone } from "../../../domain/shared/local-time.js";
import { idSchema } from "./validation.js";

const householdName = z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters");
const timestamp = z.iso.datetime();

export const householdParams = z.object({ hid: idSchema }).strict();
export const memberParams = z.object({ hid: idSchema, uid: idSchema }).strict();
export const inviteParams = z.object({ hid: idSchema, inviteId: idSchema }).strict();

const timeZone = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(100, "must be at most 100 characters")
  .refine(isTimeZone, "must be an IANA time zone such as Europe/Berlin or UTC")
  .openapi({
    description: "IANA time zone of the household: its local days decide what expires today",
    example: "Europe/Berlin",
  });

export const createHouseholdBody = z
  .object({ name: householdName, timeZone: timeZone.optional() })
  .strict()
  .openapi("CreateHouseholdRequest");
export const updateHouseholdBody = z
  .object({ name: householdName.optional(), timeZone: timeZone.optional() })
  .strict()
  .openapi("UpdateHouseholdRequest");
export const transferOwnershipBody = z.object({ newOwnerId: idSchema }).strict().openapi("TransferOwnershipRequest");
export const acceptInviteBody = z
  .object({ code: z.string().min(1, "must not be empty").max(200, "must be at most 200 characters") })
  .strict()
  .openapi("AcceptInviteRequest");

export const householdResponse = z
  .object({ id: z.string(), name: z.string(), ownerId: z.string(), timeZone: z.string(), createdAt: timestamp })
  .openapi("Household");

export const memberResponse = z
  .object({
    id: z.string().openapi({ description: "membership id" }),
    userId: z.string(),
    name: z.string(),
    email: z.string(),
    role: z.enum(["OWNER", "MEMBER"]),
    joinedAt: timestamp,
  })
  .openapi("HouseholdMember");

export const householdDetailResponse = householdResponse
  .extend({ members: z.array(memberResponse) })
  .openapi("HouseholdDetail");

export const inviteResponse = z
  .object({ id: z.string(), householdId: z.string(), code: z.string(), expiresAt: timestamp, createdAt: timestamp })
  .openapi("Invite");
