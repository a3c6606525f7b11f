import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { expect } from "chai";
import { type RunningHearth, startHearth } from "../../../src/composition/hearth.js";
import { FakeTime } from "../../support/engine-fakes.js";
import { acquireBroker, type TestBroker } from "../../support/test-servers.js";

const quiet = () => new Writable({ write: (_chunk, _encoding, done) => done() });

/**
 * An automation as a household writes one: whatever is used up goes back on the shopping list
 * (twice as many when it was coffee), through the `inventory` service.
 */
const AUTOMATION = `import { Automation, type InventoryService, type Trigger, type TriggerContext } from "hearth";
export default class Restock extends Automation {
  readonly name = "restock";
  readonly triggers: Trigger[] = [{ type: "inventory", events: ["item.archived"] }];
  async execute(context: TriggerContext): Promise<void> {
    if (context.type !== "inventory" || context.event.type !== "item.archived") return;
    if (context.event.data.reason !== "used_up") return;
    const inventory = this.require<InventoryService>("inventory");
    const { name } = context.event.data.item;
    const onList = await inventory.shoppingList(context.event.householdId);
    if (onList.some((entry) => entry.name === name)) return;
    await inventory.addToShoppingList(context.event.householdId, {
      name,
      quantity: name === "Coffee" ? 2 : 1,
      unit: "bag",
    });
  }
}
`;

describe("an automation puts used-up items on the shopping list (PGlite)", function () {
  this.timeout(120_000);
  let broker: TestBroker;
  let scratch: string;
  let automations: string;
  let hearth: RunningHearth | undefined;

  before(async () => {
    broker = await acquireBroker("shopping list automation");
    scratch = await mkdtemp(path.join(tmpdir(), "hearth-shopping-"));
    // Under the checkout, so the automation's `import "hearth"` resolves.
    await mkdir("tmp", { recursive: true });
    automations = await mkdtemp(path.resolve("tmp", "shopping-automation-"));
    await writeFile(path.join(automations, "restock.ts"), AUTOMATION);
  });

  after(async () => {
    await hearth?.stop();
    await broker?.release();
    if (scratch) await rm(scratch, { recursive: true, force: true });
    if (automations) await rm(automations, { recursive: true, force: true });
  });

  it("taking the last coffee out puts it on the list through the automation's inventory service", async () => {
    const time = new FakeTime("2026-06-01T09:00:00Z");
    hearth = await startHearth({
      env: {
        DATA_DIR: path.join(scratch, "data"),
        AUTOMATIONS_DIR: automations,
        MQTT_HOST: broker.host,
        MQTT_PORT: String(broker.port),
        LOG_LEVEL: "warn",
        TZ: "UTC",
        INVENTORY_MQTT_ENABLED: "false",
        DEVICE_REGISTRY_ENABLED: "false",
      },
      apiPort: 0,
      httpPort: null,
      clock: time,
      timer: time,
      logStream: quiet(),
    });
    const base = `http://127.0.0.1:${hearth.apiPort}/api/v1`;
    let token = "";
    // biome-ignore lint/suspicious/noExplicitAny: response bodies of several shapes, checked by the assertions
    const call = async (method: string, route: string, body?: unknown): Promise<{ status: number; body: any }> => {
      const response = await fetch(`${base}${route}`, {
        method,
        headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: await response.json() };
    };
    const registered = await call("POST", "/auth/register", {
      email: `shopper-${Date.now()}@example.test`,
      password: "correct horse battery",
      name: "Shopper",
    });
    token = registered.body.accessToken;
    const household = (await call("POST", "/households", { name: "Home" })).body;
    const freezer = (await call("POST", `/households/${household.id}/freezers`, { name: "Chest" })).body;
    const compartment = (
      await call("POST", `/households/${household.id}/freezers/${freezer.id}/compartments`, { name: "Top" })
    ).body;
    const coffee = (
      await call("POST", `/households/${household.id}/items`, {
        name: "Coffee",
        quantity: 1,
        freezerId: freezer.id,
        compartmentId: compartment.id,
      })
    ).body;
    expect(
      (await call("POST", `/households/${household.id}/items/${coffee.id}/consume`, { quantity: 1 })).status,
    ).to.equal(200);

    let list: { name: string; quantity: number; unit: string; position: number }[] = [];
    // The dispatcher's polls run on the fake clock: advance it until the automation's entry is there.
    const deadline = Date.now() + 30_000;
    while (list.length === 0) {
      if (Date.now() > deadline) throw new Error("Timed out waiting for the automation's shopping list entry");
      time.advance(500);
      list = (await call("GET", `/households/${household.id}/shopping-list`)).body;
    }
    expect(list).to.have.length(1);
    expect(list[0]).to.include({ name: "Coffee", quantity: 2, unit: "bag", position: 0 });
  });
});
