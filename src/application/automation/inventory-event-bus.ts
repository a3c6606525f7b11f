import type { InventoryEvent } from "../../domain/inventory/inventory-event.js";
import type { Logger } from "../../ports/logger.js";
import type { InventoryEventHandler, InventoryEventSourceApi } from "../../ports/inventory-events.js";

/**
 * The engine's end of inventory event delivery: the outbox dispatcher hands each delivered
 * event here, and `inventory` triggers listen. Handing over is synchronous (automations run
 * on their own), so a slow automation never holds a claim on the outbox.
 */
export class InventoryEventBus implements InventoryEventSourceApi {
  private readonly handlers = new Set<InventoryEventHandler>();

  constructor(private readonly logger: Logger) {}

  onEvent(handler: InventoryEventHandler): void {
    this.handlers.add(handler);
  }

  offEvent(handler: InventoryEventHandler): void {
    this.handlers.delete(handler);
  }

  get listenerCount(): number {
    return this.handlers.size;
  }

  publish(events: readonly InventoryEvent[]): void {
    for (const event of events) {
      for (const handler of [...this.handlers]) {
        try {
          handler(event);
        } catch (error) {
          // One listener's failure must not keep the event from the others.
          this.logger.error("Inventory event listener threw", { event: event.type, err: error });
        }
      }
    }
  }
}
