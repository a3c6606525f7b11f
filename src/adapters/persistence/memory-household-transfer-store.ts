import type { ChangeLogEntry } from "../../domain/inventory/change-log-entry.js";
import { NotHouseholdMemberError } from "../../domain/inventory/errors.js";
import {
  type Compartment,
  compareCompartments,
  compareFreezers,
  type Freezer,
} from "../../domain/inventory/freezer.js";
import type { FreezerItem } from "../../domain/inventory/freezer-item.js";
import {
  belongsToAnotherHousehold,
  type ImportedPhoto,
  ImportInvalidError,
  MAX_REPORTED_PROBLEMS,
  type TransferFreezer,
  type TransferPhoto,
} from "../../domain/inventory/household-transfer.js";
import type { RememberedBarcode } from "../../domain/inventory/barcode.js";
import type { HouseholdTransferStore, ImportCounts, ImportWrite } from "../../ports/household-transfer-store.js";
import { MemoryBarcodeRepository } from "./memory-barcode-repository.js";
import type { MemoryShoppingListRepository } from "./memory-shopping-list-repository.js";
import { compareCategories, type ItemCategory } from "../../domain/inventory/item-category.js";
import type { MemoryInventoryStore } from "./memory-inventory-store.js";
import type { MemoryItemRepository } from "./memory-item-repository.js";

/** Export and import over the in-memory store (tests and the in-memory API). */
export class MemoryHouseholdTransferStore implements HouseholdTransferStore {
  /** Per household, the end of the import queued last. */
  private readonly importing = new Map<string, Promise<void>>();

  constructor(
    private readonly store: MemoryInventoryStore,
    private readonly items: MemoryItemRepository,
    /** The barcode memory the module shares; without one, an own (empty) memory. */
    private readonly barcodes: MemoryBarcodeRepository = new MemoryBarcodeRepository(),
    /** The shopping lists the module shares; needed only by imports that add to one. */
    private readonly shoppingList: MemoryShoppingListRepository | null = null,
  ) {}

  async barcodesAfter(householdId: string, afterCode: string | null, limit: number): Promise<RememberedBarcode[]> {
    return this.barcodes.listAfter(householdId, afterCode, limit);
  }

  async freezers(householdId: string): Promise<TransferFreezer[]> {
    return [...this.store.freezers.values()]
      .filter((freezer) => freezer.householdId === householdId)
      .sort(compareFreezers)
      .map((freezer) => ({
        ...freezer,
        compartments: [...this.store.compartments.values()]
          .filter((c) => c.freezerId === freezer.id)
          .sort(compareCompartments),
      }));
  }

  async categories(householdId: string): Promise<ItemCategory[]> {
    return [...this.store.categories.values()]
      .filter((category) => category.householdId === householdId)
      .sort(compareCategories)
      .map((category) => ({ ...category }));
  }

  async itemsAfter(householdId: string, afterId: string | null, limit: number): Promise<FreezerItem[]> {
    return this.items
      .householdItems(householdId)
      .filter((item) => afterId === null || item.id > afterId)
      .slice(0, limit);
  }

  async historyAfter(householdId: string, afterId: string | null, limit: number): Promise<ChangeLogEntry[]> {
    return this.items
      .householdHistory(householdId)
      .filter((entry) => afterId === null || entry.id > afterId)
      .slice(0, limit);
  }

  async photosAfter(householdId: string, afterItemId: string | null, limit: number): Promise<TransferPhoto[]> {
    const photos: TransferPhoto[] = [];
    for (const item of this.items.householdItems(householdId)) {
      if (photos.length >= limit) break;
      if (afterItemId !== null && item.id <= afterItemId) continue;
      const photo = this.store.photos?.displayOf(item.id);
      if (photo) photos.push({ itemId: item.id, contentType: photo.contentType, image: photo.display });
    }
    return photos;
  }

  async ownItemIds(householdId: string, ids: string[]): Promise<string[]> {
    return ids.filter((id) => this.items.holds(id)?.householdId === householdId);
  }

  async foreignIds(
    householdId: string,
    ids: { items: string[]; freezers: string[]; compartments: string[] },
  ): Promise<string[]> {
    const freezerHousehold = (id: string) => this.store.freezers.get(id)?.householdId;
    return [
      ...ids.items.filter((id) => {
        const item = this.items.holds(id);
        return item !== undefined && item.householdId !== householdId;
      }),
      ...ids.freezers.filter((id) => (freezerHousehold(id) ?? householdId) !== householdId),
      ...ids.compartments.filter((id) => {
        const compartment = this.store.compartments.get(id);
        return compartment !== undefined && freezerHousehold(compartment.freezerId) !== householdId;
      }),
    ];
  }

  async importAll(write: ImportWrite): Promise<ImportCounts> {
    // Imports of one household run one after the other, as the knex store's household lock makes them.
    const before = this.importing.get(write.householdId) ?? Promise.resolve();
    const turn = before.then(() => this.importLocked(write));
    const settled = turn.then(
      () => undefined,
      () => undefined,
    );
    this.importing.set(write.householdId, settled);
    try {
      return await turn;
    } finally {
      if (this.importing.get(write.householdId) === settled) this.importing.delete(write.householdId);
    }
  }

  private async importLocked(write: ImportWrite): Promise<ImportCounts> {
    const { householdId } = write;
    if (!this.store.households.has(householdId)) throw new NotHouseholdMemberError();
    const freezers: Freezer[] = [];
    const compartments: Compartment[] = [];
    const items: FreezerItem[] = [];
    const barcodes: RememberedBarcode[] = [];
    const categories: ItemCategory[] = [];
    const photos: ImportedPhoto[] = [];
    let photoAt = new Date();
    const fileRows = new Map<string, string>();
    for await (const batch of write.batches(await this.freezers(householdId), await this.categories(householdId))) {
      freezers.push(...batch.freezers);
      categories.push(...batch.categories);
      compartments.push(...batch.compartments);
      items.push(...batch.items);
      barcodes.push(...batch.barcodes);
      photos.push(...(batch.photos ?? []));
      if (batch.photoAt) photoAt = batch.photoAt;
      for (const [id, row] of batch.rows) fileRows.set(id, row);
    }
    // Checked and applied with no await in between, so nothing else runs in the middle: an id
    // another household took while this import read its file refuses the import, as in knex.
    const taken: { row: string; message: string }[] = [];
    const fresh = <T extends { id: string }>(
      records: T[],
      kind: "item" | "freezer" | "compartment",
      ownerOf: (id: string) => string | undefined,
    ): T[] =>
      records.filter((record) => {
        const owner = ownerOf(record.id);
        if (owner !== undefined && owner !== householdId)
          taken.push({ row: fileRows.get(record.id) ?? "file", message: belongsToAnotherHousehold(kind, record.id) });
        return owner === undefined;
      });
    const freezerOwner = (id: string) => this.store.freezers.get(id)?.householdId;
    const newFreezers = fresh(freezers, "freezer", freezerOwner);
    const newCompartments = fresh(compartments, "compartment", (id) => {
      const compartment = this.store.compartments.get(id);
      return compartment && freezerOwner(compartment.freezerId);
    });
    const newItems = fresh(items, "item", (id) => this.items.holds(id)?.householdId);
    if (taken.length > 0) throw new ImportInvalidError(taken.slice(0, MAX_REPORTED_PROBLEMS), taken.length);
    // First of the writes: a list that cannot take the entries refuses the import before anything is written.
    const shopping = this.addShoppingEntries(write);
    for (const freezer of newFreezers) this.store.freezers.set(freezer.id, { ...freezer });
    for (const compartment of newCompartments) this.store.compartments.set(compartment.id, { ...compartment });
    for (const category of categories) this.store.categories.set(category.id, { ...category });
    const created = new Set(newItems.map((item) => item.id));
    const photographed = new Set(photos.filter((photo) => created.has(photo.itemId)).map((photo) => photo.itemId));
    await this.items.insertMany(
      newItems.map((item) => (photographed.has(item.id) ? { ...item, photoUpdatedAt: photoAt } : item)),
    );
    for (const photo of photos)
      if (photographed.has(photo.itemId)) this.store.photos?.put(photo.itemId, photo.images, photoAt);
    return {
      categoriesCreated: categories.length,
      itemsCreated: newItems.length,
      freezersCreated: newFreezers.length,
      compartmentsCreated: newCompartments.length,
      barcodesRemembered: this.barcodes.rememberMissing(barcodes),
      shoppingEntriesAdded: shopping,
    };
  }

  private addShoppingEntries(write: ImportWrite): number {
    const changer = write.shoppingList?.();
    if (!changer) return 0;
    if (!this.shoppingList) throw new Error("The in-memory import needs the shopping list repository to add entries");
    const changed = this.shoppingList.changeNow(write.householdId, changer);
    if (!changed) throw new NotHouseholdMemberError();
    return changed.result;
  }
}
