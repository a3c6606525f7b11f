import { z } from "zod";
import "./openapi.js";
import { idSchema } from "./validation.js";

/** Freezer and compartment names. */
export const placeName = z
  .string("must be a string")
  .trim()
  .min(1, "must not be empty")
  .max(100, "must be at most 100 characters");
export const freezerDescription = z.string().max(500, "must be at most 500 characters").nullable();
export const position = z
  .number("must be a number")
  .int("must be a whole number")
  .min(0, "must be 0 or more")
  .max(1_000_000, "must be at most 1000000");

export const freezerParams = z.object({ hid: idSchema, fid: idSchema }).strict();
export const compartmentParams = z.object({ hid: idSchema, fid: idSchema, cid: idSchema }).strict();

export const createFreezerBody = z
  .object({ name: placeName, description: freezerDescription.optional() })
  .strict()
  .openapi("CreateFreezerRequest");
export const updateFreezerBody = z
  .object({ name: placeName.optional(), description: freezerDescription.optional(), position: position.optional() })
  .strict()
  .openapi("UpdateFreezerRequest");
export const createCompartmentBody = z
  .object({ name: placeName, position: position.optional() })
  .strict()
  .openapi("CreateCompartmentRequest");
export const updateCompartmentBody = z
  .object({ name: placeName.optional(), position: position.optional() })
  .strict()
  .openapi("UpdateCompartmentRequest");

export const compartmentResponse = z
  .object({ id: z.string(), freezerId: z.string(), name: z.string(), position: z.number().int() })
  .openapi("Compartment");

export const freezerResponse = z
  .object({
    id: z.string(),
    householdId: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    position: z.number().int(),
    createdAt: z.iso.datetime(),
  })
  .openapi("Freezer");

export const freezerDetailResponse = freezerResponse
  .extend({ compartments: z.array(compartmentResponse) })
  .openapi("FreezerDetail");
