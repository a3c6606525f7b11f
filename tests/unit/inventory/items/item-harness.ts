import { MemoryInventoryOutbox } from "../../../../src/adapters/persistence/memory-inventory-outbox.js";
import { MemoryItemRepository } from "../../../../src/adapters/persistence/memory-item-repository.js";
import type { CreateItemInput } from "../../../../src/application/inventory/items/create-item.js";
import { HouseholdAccess } from "../../../../src/application/inventory/household-access.js";
import { createItemUseCases } from "../../../../src/application/inventory/items/item-use-cases.js";
import type { Clock } from "../../../../src/ports/clock.js";
import type { IdGenerator } from "../../../../src/ports/id-generator.js";
import { type ItemWorld, MemoryWorld, makeWorld } from "../../../support/item-fixtures.js";

/** A clock tests move by hand. */
export class FakeClock implements Clock {
  constructor(private current = new Date("2026-05-01T08:00:00.000Z")) {}
  now(): Date {
    return new Date(this.current);
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
  set(at: Date): void {
    this.current = new Date(at);
  }
}

export class SequentialIds implements IdGenerator {
  private count = 0;
  next(): string {
    this.count += 1;
    return `id${String(this.count).padStart(6, "0")}`;
  }
}

/** Every item use case over the in-memory adapters, sharing one world. */
export function itemUseCases() {
  const world: ItemWorld = makeWorld();
  const memory = new MemoryWorld(world);
  const outbox = new MemoryInventoryOutbox();
  const items = new MemoryItemRepository(memory, memory, memory, outbox);
  const clock = new FakeClock();
  const ids = new SequentialIds();
  const access = new HouseholdAccess(memory);
  const useCases = {
    world,
    items,
    clock,
    /** The inventory events the use cases wrote. */
    outbox,
    ...createItemUseCases({ items, placements: memory, ids, clock }, access),
    /** Creates an item as Alice in the home household's top compartment. */
    create: (overrides: Partial<CreateItemInput> = {}) =>
      useCases.createItem.execute({
        householdId: world.home.householdId,
        userId: world.users.alice.id,
        name: "Peas",
        quantity: 1,
        freezerId: world.home.freezerId,
        compartmentId: world.home.compartmentIds[0],
        ...overrides,
      }),
  };
  return useCases;
}

/** The error a promise rejects with (fails the test when it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the promise to reject");
}
