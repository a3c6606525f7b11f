import type { DependencyContainer } from "tsyringe";
import type { BarcodeUseCases } from "../adapters/http/inventory/barcode-routes.js";
import { OpenFoodFactsLookup } from "../adapters/services/open-food-facts/open-food-facts-lookup.js";
import { GetBarcode, RememberBarcode } from "../application/inventory/barcodes/barcode-memory.js";
import type { HouseholdAccess } from "../application/inventory/household-access.js";
import type { InventoryPorts } from "../application/inventory/inventory-ports.js";
import { BARCODE_REPOSITORY, type BarcodeRepository } from "../ports/barcode-repository.js";
import { ITEM_PLACEMENT_LOOKUP, type ItemPlacementLookup } from "../ports/item-placement.js";
import type { Logger } from "../ports/logger.js";
import { HEARTH_VERSION } from "./version.js";

/** `{ url: string | undefined }`: PRODUCT_LOOKUP_URL as the container was built with it. */
export const PRODUCT_LOOKUP_SETTING = Symbol("ProductLookupSetting");

/** The barcode memory's use cases; with PRODUCT_LOOKUP_URL set, unknown codes are asked of Open Food Facts. */
export function barcodeUseCases(
  scope: DependencyContainer,
  ports: InventoryPorts,
  access: HouseholdAccess,
  logger: Logger,
): BarcodeUseCases {
  const barcodes = scope.resolve<BarcodeRepository>(BARCODE_REPOSITORY);
  const { url } = scope.resolve<{ url: string | undefined }>(PRODUCT_LOOKUP_SETTING);
  const lookup = url
    ? new OpenFoodFactsLookup({
        baseUrl: url,
        userAgent: `Hearth/${HEARTH_VERSION} (self-hosted freezer inventory)`,
        logger: logger.child({ module: "product-lookup" }),
      })
    : undefined;
  const barcodePorts = {
    barcodes,
    lookup,
    clock: ports.clock,
    placements: scope.resolve<ItemPlacementLookup>(ITEM_PLACEMENT_LOOKUP),
  };
  return {
    getBarcode: new GetBarcode(barcodePorts, access),
    rememberBarcode: new RememberBarcode(barcodePorts, access),
  };
}
