import type { ExportRecord } from "../../../domain/inventory/household-transfer.js";
import type { HouseholdTransferStore } from "../../../ports/household-transfer-store.js";
import type { ShoppingListRepository } from "../../../ports/shopping-list-repository.js";
import { HouseholdUseCase } from "../household-access.js";
import type { HouseholdInput } from "../inventory-ports.js";

/** Rows read per query: memory stays flat however large the household. */
const PAGE = 1000;
/** Photos read per query: each is up to a few hundred kB. */
const PHOTO_PAGE = 10;

/**
 * Everything of one household for a member, as records in order: freezers, compartments,
 * categories, items (active and archived), their history, the barcodes the household remembers,
 * the shopping list and the items' photos. Read page by page, so the caller can stream.
 */
export class ExportHousehold extends HouseholdUseCase<{
  transfers: HouseholdTransferStore;
  /** Where the shopping list comes from; absent: the export has none. */
  shoppingList?: Pick<ShoppingListRepository, "list">;
}> {
  /** Checks the membership first, then returns the records to iterate. */
  async execute(input: HouseholdInput): Promise<AsyncIterable<ExportRecord>> {
    await this.access.requireMember(input.householdId, input.userId);
    return this.records(input.householdId);
  }

  private async *records(householdId: string): AsyncGenerator<ExportRecord> {
    const freezers = await this.ports.transfers.freezers(householdId);
    for (const { compartments: _compartments, ...freezer } of freezers) yield { kind: "freezer", freezer };
    for (const freezer of freezers)
      for (const compartment of freezer.compartments) yield { kind: "compartment", compartment };
    for (const category of await this.ports.transfers.categories(householdId)) yield { kind: "category", category };
    for (let after: string | null = null; ; ) {
      const items = await this.ports.transfers.itemsAfter(householdId, after, PAGE);
      for (const item of items) yield { kind: "item", item };
      if (items.length < PAGE) break;
      after = items[items.length - 1]?.id ?? null;
    }
    for (let after: string | null = null; ; ) {
      const entries = await this.ports.transfers.historyAfter(householdId, after, PAGE);
      for (const entry of entries) yield { kind: "history", entry };
      if (entries.length < PAGE) break;
      after = entries[entries.length - 1]?.id ?? null;
    }
    for (let after: string | null = null; ; ) {
      const barcodes = await this.ports.transfers.barcodesAfter(householdId, after, PAGE);
      for (const barcode of barcodes) yield { kind: "barcode", barcode };
      if (barcodes.length < PAGE) break;
      after = barcodes[barcodes.length - 1]?.code ?? null;
    }
    // At most SHOPPING_LIST_MAX_ENTRIES: read at once.
    for (const entry of (await this.ports.shoppingList?.list(householdId)) ?? []) yield { kind: "shopping", entry };
    for (let after: string | null = null; ; ) {
      const photos = await this.ports.transfers.photosAfter(householdId, after, PHOTO_PAGE);
      for (const photo of photos) yield { kind: "photo", photo };
      if (photos.length < PHOTO_PAGE) break;
      after = photos[photos.length - 1]?.itemId ?? null;
    }
  }
}
