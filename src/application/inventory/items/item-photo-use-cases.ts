import type { Clock } from "../../../ports/clock.js";
import { monotonicClock } from "../../../ports/clock.js";
import type { IdGenerator } from "../../../ports/id-generator.js";
import type { ItemPhotoRepository } from "../../../ports/item-photo-repository.js";
import type { ItemRepository } from "../../../ports/item-repository.js";
import type { PhotoProcessor } from "../../../ports/photo-processor.js";
import type { HouseholdAccess } from "../household-access.js";
import { GetItemPhoto } from "./get-item-photo.js";
import { RemoveItemPhoto } from "./remove-item-photo.js";
import { SetItemPhoto } from "./set-item-photo.js";

export interface ItemPhotoPorts {
  items: ItemRepository;
  photos: ItemPhotoRepository;
  processor: PhotoProcessor;
  ids: IdGenerator;
  clock: Clock;
}

/** The photo use cases, over one set of ports and the household access policy. */
export function createItemPhotoUseCases(given: ItemPhotoPorts, access: HouseholdAccess) {
  const ports: ItemPhotoPorts = { ...given, clock: monotonicClock(given.clock) };
  return {
    setItemPhoto: new SetItemPhoto(ports, access),
    removeItemPhoto: new RemoveItemPhoto(ports, access),
    getItemPhoto: new GetItemPhoto(ports, access),
  };
}

export type ItemPhotoUseCases = ReturnType<typeof createItemPhotoUseCases>;
