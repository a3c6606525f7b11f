import { expect } from "chai";
import request from "supertest";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";
import { KnexFreezerRepository } from "../../../src/adapters/persistence/knex-freezer-repository.js";
import { KnexCategoryRepository } from "../../../src/adapters/persistence/knex-category-repository.js";
import { KnexHouseholdRepository } from "../../../src/adapters/persistence/knex-household-repository.js";
import { KnexInventoryOutbox } from "../../../src/adapters/persistence/knex-inventory-outbox.js";
import { KnexInventorySummaries } from "../../../src/adapters/persistence/knex-inventory-summaries.js";
import { KnexItemRepository } from "../../../src/adapters/persistence/knex-item-repository.js";
import { KnexUserRepository } from "../../../src/adapters/persistence/knex-user-repository.js";
import { Cuid2IdGenerator } from "../../../src/adapters/ids/cuid2-id-generator.js";
import { Automation, ATTACH_RUNTIME } from "../../../src/application/automation/sdk/automation.js";
import {
  AutomationInventoryService,
  automationMemberships,
  type InventoryService,
} from "../../../src/application/inventory/automation-inventory-service.js";
import { HouseholdAccess } from "../../../src/application/inventory/household-access.js";
import { placementsFromFreezers } from "../../../src/application/inventory/items/item-placement.js";
import { createItemUseCases } from "../../../src/application/inventory/items/item-use-cases.js";
import type { Trigger } from "../../../src/domain/automation/trigger.js";
import type { InventoryEvent } from "../../../src/domain/inventory/inventory-event.js";
import { loadConfig } from "../../../src/composition/config.js";
import { buildInventoryApi } from "../../../src/composition/inventory-api.js";
import { systemClock } from "../../../src/ports/clock.js";
import type { AutomationRuntime } from "../../../src/application/automation/sdk/automation.js";
import { useMigratedDatabase } from "../../support/migrated-database.js";
import { KnexShoppingListRepository } from "../../../src/adapters/persistence/knex-shopping-list-repository.js";
import { createShoppingListUseCases } from "../../../src/application/inventory/shopping-list/shopping-list-use-cases.js";

class FreezerBot extends Automation {
  readonly name = "freezer-bot";
  readonly triggers: Trigger[] = [];
  execute(): void {}
}

describe("the inventory service for automations (knex on PGlite)", function () {
  this.timeout(120_000);
  const database = useMigratedDatabase("pglite");

  it("reads expiring items, searches, counts by freezer; consumes and archives as the automation, with history and events", async () => {
    const knex = database().knex;
    const api = await buildInventoryApi({
      config: loadConfig({ JWT_SECRET: "inventory-service-secret-0123456789abcdef" }),
      database: database(),
      logger: new MemoryLogger(),
    });
    const owner = await request(api.app)
      .post("/api/v1/auth/register")
      .send({ email: "bot-owner@example.test", password: "password123", name: "Owner" });
    const auth = { Authorization: `Bearer ${owner.body.accessToken}` };
    const hid = (await request(api.app).post("/api/v1/households").set(auth).send({ name: "Home" })).body.id as string;
    const freezer = (
      await request(api.app).post(`/api/v1/households/${hid}/freezers`).set(auth).send({ name: "Chest" })
    ).body;
    const compartment = (
      await request(api.app)
        .post(`/api/v1/households/${hid}/freezers/${freezer.id}/compartments`)
        .set(auth)
        .send({ name: "Top" })
    ).body;
    const soon = new Date(Date.now() + 86_400_000).toISOString();
    const add = async (name: string, expiresAt: string | null) =>
      (
        await request(api.app)
          .post(`/api/v1/households/${hid}/items`)
          .set(auth)
          .send({ name, quantity: 2, freezerId: freezer.id, compartmentId: compartment.id, expiresAt })
      ).body as { id: string };
    const peas = await add("Garden peas", soon);
    const ice = await add("Ice cubes", null);

    const items = new KnexItemRepository(knex);
    const useCases = createItemUseCases(
      {
        items,
        placements: placementsFromFreezers(new KnexFreezerRepository(knex), new KnexCategoryRepository(knex)),
        ids: new Cuid2IdGenerator(),
        clock: systemClock,
      },
      new HouseholdAccess(automationMemberships(new KnexHouseholdRepository(knex))),
    );
    const registered = new AutomationInventoryService({
      useCases,
      items,
      summaries: new KnexInventorySummaries(knex),
      users: new KnexUserRepository(knex),
      clock: systemClock,
      shoppingList: createShoppingListUseCases(
        {
          shoppingList: new KnexShoppingListRepository(knex),
          items,
          placements: placementsFromFreezers(new KnexFreezerRepository(knex), new KnexCategoryRepository(knex)),
          ids: new Cuid2IdGenerator(),
          clock: systemClock,
        },
        new HouseholdAccess(automationMemberships(new KnexHouseholdRepository(knex))),
      ),
    });
    const bot = new FreezerBot();
    bot[ATTACH_RUNTIME]({ services: { get: () => registered } } as unknown as AutomationRuntime);
    const inventory = bot.require<InventoryService>("inventory");

    expect((await inventory.expiringItems(hid, { days: 3 })).map((item) => item.name)).to.deep.equal(["Garden peas"]);
    expect((await inventory.search(hid, "ice")).map((item) => item.id)).to.deep.equal([ice.id]);
    expect(await inventory.countsByFreezer(hid)).to.deep.equal([
      { freezerId: freezer.id, name: "Chest", itemCount: 2 },
    ]);
    expect(await inventory.summary(hid)).to.include({ itemCount: 2, expiringSoon: 1, expired: 0 });

    const consumed = await inventory.consume(hid, peas.id, 1);
    expect(consumed.quantity).to.equal(1);
    expect(consumed.updatedBy).to.include({ id: "automation:freezer-bot", name: "Automation freezer-bot" });
    await inventory.archive(hid, ice.id);
    const viaApi = await request(api.app).get(`/api/v1/households/${hid}/items/${ice.id}`).set(auth);
    expect(viaApi.body.updatedBy).to.include({ id: "automation:freezer-bot", name: "Automation freezer-bot" });
    const history = await request(api.app).get(`/api/v1/households/${hid}/items/${peas.id}/history`).set(auth);
    expect(history.body[0]).to.deep.include({ fieldName: "quantity", oldValue: "2", newValue: "1" });
    expect(history.body[0].changedBy).to.include({ id: "automation:freezer-bot", name: "Automation freezer-bot" });

    // The shopping list, as a member would add to it; input a plain-JS automation gets wrong is refused.
    const entry = await inventory.addToShoppingList(hid, { name: " Garden peas ", quantity: 2, unit: "bag" });
    expect(entry).to.include({ name: "Garden peas", quantity: 2, unit: "bag", checked: false, position: 0 });
    expect(entry.createdById).to.equal("automation:freezer-bot");
    for (const bad of [
      { name: "" },
      { name: "x", quantity: 0 },
      { name: "x", unit: "stone" },
      { name: "x", quantity: Number.NaN },
    ]) {
      const refused = await inventory
        .addToShoppingList(hid, bad as Parameters<InventoryService["addToShoppingList"]>[1])
        .catch((error: unknown) => error);
      expect(refused, JSON.stringify(bad)).to.have.property("code", "VALIDATION_FAILED");
    }
    expect((await inventory.shoppingList(hid)).map((e) => e.name)).to.deep.equal(["Garden peas"]);
    const viaApiList = await request(api.app).get(`/api/v1/households/${hid}/shopping-list`).set(auth);
    expect(viaApiList.body.map((e: { id: string }) => e.id)).to.deep.equal([entry.id]);

    const events: InventoryEvent[] = [];
    while ((await new KnexInventoryOutbox(knex).deliverNext(100, (batch) => void events.push(...batch))) > 0) {}
    const byBot = events.filter((event) => event.actor?.kind === "automation");
    expect(byBot.map((event) => event.type)).to.deep.equal(["item.consumed", "item.archived", "shopping_list.added"]);
    expect(byBot[0]?.actor).to.deep.equal({ kind: "automation", id: "automation:freezer-bot", name: "freezer-bot" });

    // Nobody can sign in as the automation, nor register its address.
    expect(
      (
        await request(api.app)
          .post("/api/v1/auth/login")
          .send({ email: "freezer-bot@automations.invalid", password: "!automation" })
      ).status,
    ).to.equal(401);
    const taken = await request(api.app)
      .post("/api/v1/auth/register")
      .send({ email: "other-bot@automations.invalid", password: "password123", name: "X" });
    expect(taken.status).to.equal(400);
    await api.close();
  });
});
