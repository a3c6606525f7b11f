import type { GetBarcode, RememberBarcode } from "../../../application/inventory/barcodes/barcode-memory.js";
import { barcodeParams, barcodeResponse, rememberBarcodeBody, toBarcodeResponse } from "./barcode-schemas.js";
import { defineRoute, type RouteDefinition } from "./routes.js";

export interface BarcodeUseCases {
  getBarcode: GetBarcode;
  rememberBarcode: RememberBarcode;
}

const TAGS = ["Barcodes"];
const BARCODE_PATH = "/households/{hid}/barcodes/{code}";

/** What a household remembers about barcodes, described once for express and OpenAPI. */
export function barcodeRoutes(useCases: BarcodeUseCases): RouteDefinition[] {
  return [
    defineRoute({
      method: "get",
      path: BARCODE_PATH,
      summary:
        "What a scanned code is: what the household remembers, else (PRODUCT_LOOKUP_URL set) what Open Food Facts knows; 404 when neither knows it",
      tags: TAGS,
      params: barcodeParams,
      access: "member",
      status: 200,
      response: barcodeResponse,
      errors: [404],
      handler: async ({ userId, params }) =>
        toBarcodeResponse(await useCases.getBarcode.execute({ userId, householdId: params.hid, code: params.code })),
    }),
    defineRoute({
      method: "put",
      path: BARCODE_PATH,
      summary:
        "Remember (or correct) what a code is, for every member's next scan; the app saves it when it creates an item from a scan",
      tags: TAGS,
      params: barcodeParams,
      access: "member",
      body: rememberBarcodeBody,
      status: 200,
      response: barcodeResponse,
      handler: async ({ userId, params, body }) =>
        toBarcodeResponse(
          await useCases.rememberBarcode.execute({ userId, householdId: params.hid, code: params.code, ...body }),
        ),
    }),
  ];
}
