import type { ExportRecord } from "../../../domain/inventory/household-transfer.js";
import type { HouseholdTransferStore } from "../../../ports/household-transfer-store.js";
import { HouseholdUseCase } from "../household-access.js";
import type { HouseholdInput } from "../inventory-ports.js";

/** Rows read per query: memory stays flat however large the household. */
const PAGE = 1000;
/** Photos read per query: each is up to a few hundred kB. */
const PHOTO_PAGE = 10;

/**
 * Everything of one household for a member, as records in order: freezers, compartments,
 * items (active and archived), their history and their photos. Read page by page, so the caller can stream.
 */
export class ExportHousehold extends HouseholdUseCase<{ transfers: HouseholdTransferStore }> {
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
      const photos = await this.ports.transfers.photosAfter(householdId, after, PHOTO_PAGE);
      for (const photo of photos) yield { kind: "photo", photo };
      if (photos.length < PHOTO_PAGE) break;
      after = photos[photos.length - 1]?.itemId ?? null;
    }
  }
}
