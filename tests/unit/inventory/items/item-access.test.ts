import { expect } from "chai";
import { MemoryItemRepository } from "../../../../src/adapters/persistence/memory-item-repository.js";
import { HouseholdAccess } from "../../../../src/application/inventory/household-access.js";
import { createItemUseCases } from "../../../../src/application/inventory/items/item-use-cases.js";
import { NotHouseholdMemberError, NotHouseholdOwnerError } from "../../../../src/domain/inventory/errors.js";
import type { Membership } from "../../../../src/domain/inventory/household.js";
import { MemoryWorld, makeWorld } from "../../../support/item-fixtures.js";
import { FakeClock, rejection, SequentialIds } from "./item-harness.js";

/**
 * The item use cases own the access policy: a caller that is not HTTP (the engine, the CLI)
 * gets the same answers as the access table's HTTP rows, with one membership read per call.
 */
describe("item use cases: the access policy without HTTP", () => {
  function setUp() {
    const world = makeWorld();
    const memory = new MemoryWorld(world);
    let membershipReads = 0;
    const counted = {
      findMembership: (householdId: string, userId: string): Promise<Membership | null> => {
        membershipReads += 1;
        return memory.findMembership(householdId, userId);
      },
    };
    const items = new MemoryItemRepository(memory, counted, memory);
    const useCases = createItemUseCases(
      { items, placements: memory, ids: new SequentialIds(), clock: new FakeClock() },
      new HouseholdAccess(counted),
    );
    return { world, useCases, reads: () => membershipReads, resetReads: () => (membershipReads = 0) };
  }

  it("refuses every item use case to a non-member with 403's error, before looking at the item", async () => {
    const { world, useCases } = setUp();
    const item = await useCases.createItem.execute({
      householdId: world.home.householdId,
      userId: world.users.alice.id,
      name: "Peas",
      quantity: 1,
      freezerId: world.home.freezerId,
      compartmentId: world.home.compartmentIds[0],
    });
    // Alice does not belong to "away"; the ids are of her own household, so only the membership can refuse.
    const outsider = { householdId: world.away.householdId, userId: world.users.alice.id };
    const key = { ...outsider, itemId: item.id };
    const calls: [string, Promise<unknown>][] = [
      [
        "createItem",
        useCases.createItem.execute({
          ...outsider,
          name: "Peas",
          quantity: 1,
          freezerId: world.away.freezerId,
          compartmentId: world.away.compartmentId,
        }),
      ],
      ["listItems", useCases.listItems.execute({ ...outsider, page: 1, limit: 20 })],
      ["getItem", useCases.getItem.execute(key)],
      ["updateItem", useCases.updateItem.execute({ ...key, patch: { quantity: 2 } })],
      ["archiveItem", useCases.archiveItem.execute(key)],
      ["restoreItem", useCases.restoreItem.execute(key)],
      ["deleteItemPermanently", useCases.deleteItemPermanently.execute(key)],
      ["listArchivedItems", useCases.listArchivedItems.execute(outsider)],
      ["listArchivedItems.page", useCases.listArchivedItems.page({ ...outsider, page: 1, limit: 20 })],
      ["getItemHistory", useCases.getItemHistory.execute(key)],
    ];
    for (const [name, call] of calls) {
      expect(await rejection(call), name).to.be.instanceOf(NotHouseholdMemberError);
    }
  });

  it("lets only the owner delete for good", async () => {
    const { world, useCases } = setUp();
    const item = await useCases.createItem.execute({
      householdId: world.home.householdId,
      userId: world.users.bob.id,
      name: "Peas",
      quantity: 1,
      freezerId: world.home.freezerId,
      compartmentId: world.home.compartmentIds[0],
    });
    const key = { householdId: world.home.householdId, itemId: item.id };
    await useCases.archiveItem.execute({ ...key, userId: world.users.bob.id });
    expect(
      await rejection(useCases.deleteItemPermanently.execute({ ...key, userId: world.users.bob.id })),
    ).to.be.instanceOf(NotHouseholdOwnerError);
    await useCases.deleteItemPermanently.execute({ ...key, userId: world.users.alice.id });
  });

  it("reads the membership once per call", async () => {
    const { world, useCases, reads, resetReads } = setUp();
    const member = { householdId: world.home.householdId, userId: world.users.bob.id };
    const item = await useCases.createItem.execute({
      ...member,
      name: "Peas",
      quantity: 1,
      freezerId: world.home.freezerId,
      compartmentId: world.home.compartmentIds[0],
    });
    const key = { ...member, itemId: item.id };
    const calls: (() => Promise<unknown>)[] = [
      () => useCases.listItems.execute({ ...member, page: 1, limit: 20 }),
      () => useCases.getItem.execute(key),
      () => useCases.updateItem.execute({ ...key, patch: { quantity: 3 } }),
      () => useCases.getItemHistory.execute(key),
      () => useCases.archiveItem.execute(key),
      () => useCases.listArchivedItems.page({ ...member, page: 1, limit: 20 }),
      () => useCases.restoreItem.execute(key),
    ];
    for (const call of calls) {
      resetReads();
      await call();
      expect(reads()).to.equal(1);
    }
  });
});
