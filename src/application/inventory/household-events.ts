import { eventFactory } from "../../domain/inventory/inventory-event.js";
import type { Clock } from "../../ports/clock.js";
import type { IdGenerator } from "../../ports/id-generator.js";
import type { HouseholdInput } from "./inventory-ports.js";

/**
 * Makes the events a use case records for `input.userId` acting on `input.householdId`:
 * stamped `at` (the clock's now unless given), with ids from the port.
 */
export function householdEvents(ports: { ids: IdGenerator; clock: Clock }, input: HouseholdInput, at?: Date) {
  return eventFactory({
    householdId: input.householdId,
    userId: input.userId,
    at: at ?? ports.clock.now(),
    newId: () => ports.ids.next(),
  });
}
