import type { InventoryEvent } from "../domain/inventory/inventory-event.js";

export type InventoryEventHandler = (event: InventoryEvent) => void;

/** Where `inventory` triggers hear delivered inventory events. */
export interface InventoryEventSourceApi {
  onEvent(handler: InventoryEventHandler): void;
  offEvent(handler: InventoryEventHandler): void;
}
