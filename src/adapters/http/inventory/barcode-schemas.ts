import { z } from "zod";
import "./openapi.js";
import type { BarcodeAnswer } from "../../../application/inventory/barcodes/barcode-memory.js";
import { BARCODE_UNITS, parseBarcode } from "../../../domain/inventory/barcode.js";
import { idSchema } from "./validation.js";

/**
 * A product barcode (domain/inventory/barcode.ts): a GTIN (EAN-8, UPC-E, UPC-A, EAN-13, GTIN-14) with
 * a matching check digit, or 1–64 letters, digits, `-`, `.`, `_`, `~`. Parsed to its stored form
 * (a UPC-A becomes its EAN-13).
 */
export const barcode = z
  .string("must be a string")
  .max(200, "must be at most 64 characters")
  .transform((text, context) => {
    const parsed = parseBarcode(text);
    if ("problem" in parsed) {
      context.addIssue({ code: "custom", message: parsed.problem });
      return z.NEVER;
    }
    return parsed.code;
  })
  .openapi({
    type: "string",
    example: "4006381333931",
    description:
      "EAN-8, UPC-E, UPC-A, EAN-13 or GTIN-14 digits with a matching check digit (a UPC-A is stored as its EAN-13, with a leading 0), or another code of 1-64 letters, digits, -, ., _ and ~",
  });

export const nullableBarcode = barcode.nullable().openapi({ type: ["string", "null"] });

export const barcodeParams = z.object({ hid: idSchema, code: barcode }).strict();

export const rememberBarcodeBody = z
  .object({
    name: z.string("must be a string").trim().min(1, "must not be empty").max(200, "must be at most 200 characters"),
    unit: z
      .enum(BARCODE_UNITS, `must be one of ${BARCODE_UNITS.join(", ")}`)
      .nullable()
      .optional(),
    categoryId: idSchema.nullable().optional(),
  })
  .strict()
  .openapi("RememberBarcodeRequest", { description: "What the code is; unit and categoryId left out are null" });

export const barcodeResponse = z
  .object({
    code: z.string().openapi({ description: "The code in its stored form" }),
    name: z.string(),
    unit: z.enum(BARCODE_UNITS).nullable(),
    categoryId: z.string().nullable(),
    source: z.enum(["household", "lookup"]).openapi({
      description:
        "household: a member saved it; lookup: the household has not seen the code and the product lookup (PRODUCT_LOOKUP_URL) knew it, not remembered until a member saves it",
    }),
    updatedAt: z.iso.datetime().nullable(),
  })
  .openapi("RememberedBarcode");

export function toBarcodeResponse(answer: BarcodeAnswer): z.input<typeof barcodeResponse> {
  return {
    code: answer.code,
    name: answer.name,
    unit: answer.unit,
    categoryId: answer.categoryId,
    source: answer.source,
    updatedAt: answer.updatedAt === null ? null : answer.updatedAt.toISOString(),
  };
}
