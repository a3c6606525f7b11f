import type { HouseholdTimeZones } from "../../../ports/household-time-zones.js";
import { type Clock, monotonicClock } from "../../../ports/clock.js";
import type { IdGenerator } from "../../../ports/id-generator.js";
import type { ItemPlacementLookup } from "../../../ports/item-placement.js";
import type { ItemRepository } from "../../../ports/item-repository.js";
import { ArchiveItem } from "./archive-item.js";
import { ConsumeItem } from "./consume-item.js";
import { CreateItem } from "./create-item.js";
import { DeleteItemPermanently } from "./delete-item-permanently.js";
import { GetItem } from "./get-item.js";
import { GetItemHistory } from "./get-item-history.js";
import type { HouseholdAccess } from "../household-access.js";
import { ListArchivedItems } from "./list-archived-items.js";
import { ListExpiringItems } from "./list-expiring-items.js";
import { ListItems } from "./list-items.js";
import { RestoreItem } from "./restore-item.js";
import { UpdateItem } from "./update-item.js";

export interface ItemPorts {
  items: ItemRepository;
  placements: ItemPlacementLookup;
  ids: IdGenerator;
  clock: Clock;
  /** The households' time zones, for "expiring" in local days; absent: UTC days. */
  timeZones?: HouseholdTimeZones;
}

/** Every item use case, built over one set of ports and the household access policy. */
export function createItemUseCases(given: ItemPorts, access: HouseholdAccess) {
  // Creation, archive and change times of this process's writes follow the order of the
  // writes; reads (what expires soon) take the clock as it is.
  const ports: ItemPorts = { ...given, clock: monotonicClock(given.clock) };
  return {
    createItem: new CreateItem(ports),
    listItems: new ListItems(ports),
    getItem: new GetItem(ports),
    updateItem: new UpdateItem(ports, access),
    archiveItem: new ArchiveItem(ports, access),
    restoreItem: new RestoreItem(ports, access),
    deleteItemPermanently: new DeleteItemPermanently(ports, access),
    listArchivedItems: new ListArchivedItems(ports, access),
    getItemHistory: new GetItemHistory(ports),
    consumeItem: new ConsumeItem(ports, access),
    listExpiringItems: new ListExpiringItems(given, access),
  };
}

export type ItemUseCases = ReturnType<typeof createItemUseCases>;
