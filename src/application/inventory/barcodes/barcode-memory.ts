import { BarcodeNotFoundError, type BarcodeUnit, type RememberedBarcode } from "../../../domain/inventory/barcode.js";
import type { BarcodeRepository } from "../../../ports/barcode-repository.js";
import type { ProductLookup } from "../../../ports/product-lookup.js";
import type { ItemPlacementLookup } from "../../../ports/item-placement.js";
import { HouseholdUseCase } from "../household-access.js";
import { assertValidCategory } from "../items/item-placement.js";
import type { HouseholdInput, InventoryPorts } from "../inventory-ports.js";

/** What the barcode use cases read and write; `lookup` is absent while PRODUCT_LOOKUP_URL is unset. */
export type BarcodePorts = {
  barcodes: BarcodeRepository;
  lookup?: ProductLookup | undefined;
  /** Whose categories a remembered category must be (the items' check). */
  placements: Pick<ItemPlacementLookup, "categoryInHousehold">;
} & Pick<InventoryPorts, "clock">;

export interface BarcodeInput extends HouseholdInput {
  /** A code in its stored form (domain/inventory/barcode.ts parseBarcode). */
  code: string;
}

/** What a scan fills in, and where it came from. */
export interface BarcodeAnswer {
  code: string;
  name: string;
  unit: BarcodeUnit | null;
  categoryId: string | null;
  /** `household`: a member saved it; `lookup`: the product database knew it (not remembered yet). */
  source: "household" | "lookup";
  /** When a member last saved it; null for a lookup. */
  updatedAt: Date | null;
}

function fromHousehold(entry: RememberedBarcode): BarcodeAnswer {
  return { ...entry, source: "household" };
}

/**
 * What a scanned code is: the household's own memory first; for a code it has not seen, the
 * product lookup when it is configured. The lookup's answer is not remembered: the member
 * confirms (or corrects) the name and the app saves it.
 */
export class GetBarcode extends HouseholdUseCase<BarcodePorts> {
  async execute(input: BarcodeInput): Promise<BarcodeAnswer> {
    await this.access.requireMember(input.householdId, input.userId);
    const remembered = await this.ports.barcodes.find(input.householdId, input.code);
    if (remembered) {
      // A category deleted since the code was remembered is no longer one to file the item under.
      const { categoryId } = remembered;
      const current =
        categoryId !== null && !(await this.ports.placements.categoryInHousehold(input.householdId, categoryId));
      return fromHousehold(current ? { ...remembered, categoryId: null } : remembered);
    }
    const product = await this.ports.lookup?.find(input.code);
    if (!product) throw new BarcodeNotFoundError();
    return { code: input.code, name: product.name, unit: null, categoryId: null, source: "lookup", updatedAt: null };
  }
}

export interface RememberBarcodeInput extends BarcodeInput {
  name: string;
  unit?: BarcodeUnit | null | undefined;
  categoryId?: string | null | undefined;
}

/** Remembers (or corrects) what a code is; any member may. Left-out fields are null. */
export class RememberBarcode extends HouseholdUseCase<BarcodePorts> {
  async execute(input: RememberBarcodeInput): Promise<BarcodeAnswer> {
    await this.access.requireMember(input.householdId, input.userId);
    await assertValidCategory(this.ports.placements, input.householdId, input.categoryId);
    const saved = await this.ports.barcodes.save({
      householdId: input.householdId,
      code: input.code,
      name: input.name,
      unit: input.unit ?? null,
      categoryId: input.categoryId ?? null,
      updatedAt: this.ports.clock.now(),
    });
    return fromHousehold(saved);
  }
}
