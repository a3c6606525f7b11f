import type { Clock } from "../../ports/clock.js";
import type { IdGenerator } from "../../ports/id-generator.js";
import type { ItemPlacementLookup } from "../../ports/item-placement.js";
import type { ItemRepository } from "../../ports/item-repository.js";
import { ArchiveItem } from "./archive-item.js";
import { ConsumeItem } from "./consume-item.js";
import { CreateItem } from "./create-item.js";
import { DeleteItemPermanently } from "./delete-item-permanently.js";
import { GetItem } from "./get-item.js";
import { GetItemHistory } from "./get-item-history.js";
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
}

/** Every item use case, built over one set of ports. */
export function createItemUseCases(ports: ItemPorts) {
  return {
    createItem: new CreateItem(ports.items, ports.placements, ports.ids, ports.clock),
    listItems: new ListItems(ports.items),
    getItem: new GetItem(ports.items),
    updateItem: new UpdateItem(ports.items, ports.placements, ports.ids, ports.clock),
    archiveItem: new ArchiveItem(ports.items, ports.clock, ports.ids),
    restoreItem: new RestoreItem(ports.items, ports.clock, ports.ids),
    deleteItemPermanently: new DeleteItemPermanently(ports.items, ports.clock, ports.ids),
    consumeItem: new ConsumeItem(ports.items, ports.ids, ports.clock),
    listExpiringItems: new ListExpiringItems(ports.items, ports.clock),
    listArchivedItems: new ListArchivedItems(ports.items),
    getItemHistory: new GetItemHistory(ports.items),
  };
}

export type ItemUseCases = ReturnType<typeof createItemUseCases>;
