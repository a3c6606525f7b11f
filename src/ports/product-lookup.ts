import type { LookedUpProduct } from "../domain/inventory/barcode.js";

/**
 * A product database outside the house (Open Food Facts), asked only for codes a household has
 * not remembered. It never throws: an unknown product, a refusal, a timeout or an answer it cannot
 * read are all null, so the household goes on by typing the name.
 */
export interface ProductLookup {
  find(code: string): Promise<LookedUpProduct | null>;
}

export const PRODUCT_LOOKUP = Symbol("ProductLookup");
