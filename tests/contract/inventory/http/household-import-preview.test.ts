import { expect } from "chai";
import request from "supertest";
import { buildWorld, type InventoryWorld, snapshot } from "./inventory-http-world.js";

const base = (w: InventoryWorld) => `/api/v1/households/${w.householdId}`;

async function addItem(w: InventoryWorld, name: string) {
  const response = await request(w.app)
    .post(`${base(w)}/items`)
    .set(w.auth("owner"))
    .send({ name, quantity: 2, freezerId: w.freezerId, compartmentId: w.compartmentId });
  expect(response.status, JSON.stringify(response.body)).to.equal(201);
  return response.body as { id: string };
}

async function exportJson(w: InventoryWorld) {
  const response = await request(w.app)
    .get(`${base(w)}/export?format=json`)
    .set(w.auth("owner"));
  expect(response.status).to.equal(200);
  return response.body as { items: { id: string; name: string }[] } & Record<string, unknown>;
}

describe("inventory HTTP: import preview (?dryRun=true)", () => {
  it("answers what an import would create and leave, writing nothing; the import then does exactly that", async () => {
    const w = await buildWorld();
    await addItem(w, "Peas");
    const file = await exportJson(w);
    const extra = {
      id: "a".repeat(24),
      freezerId: null,
      freezerName: "Garage chest",
      compartmentId: null,
      compartmentName: "Bottom",
      name: "Berries",
      quantity: 3,
      notes: null,
      storedAt: null,
      expiresAt: null,
      archivedAt: null,
      createdAt: null,
      updatedAt: null,
    };
    const template = file.items[0] as Record<string, unknown>;
    const grown = { ...file, items: [...file.items, { ...template, ...extra }] };
    const before = snapshot(w.store);
    const preview = await request(w.app)
      .post(`${base(w)}/import?dryRun=true`)
      .set(w.auth("owner"))
      .send(grown);
    expect(preview.status, JSON.stringify(preview.body)).to.equal(200);
    expect(preview.body).to.deep.equal({
      freezersCreated: 1,
      compartmentsCreated: 1,
      categoriesCreated: 0,
      itemsCreated: 1,
      itemsUnchanged: 1,
      barcodesRemembered: 0,
      shoppingEntriesAdded: 0,
    });
    expect(snapshot(w.store), "the preview wrote something").to.equal(before);
    const imported = await request(w.app)
      .post(`${base(w)}/import`)
      .set(w.auth("owner"))
      .send(grown);
    expect(imported.body).to.deep.equal(preview.body);
    const again = await request(w.app)
      .post(`${base(w)}/import?dryRun=true`)
      .set(w.auth("owner"))
      .send(grown);
    expect(again.body).to.deep.equal({
      freezersCreated: 0,
      compartmentsCreated: 0,
      categoriesCreated: 0,
      itemsCreated: 0,
      itemsUnchanged: 2,
      barcodesRemembered: 0,
      shoppingEntriesAdded: 0,
    });
  });

  it("refuses a bad file with the same row problems as the import, and a bad dryRun value, writing nothing", async () => {
    const w = await buildWorld();
    const before = snapshot(w.store);
    const bad = await request(w.app)
      .post(`${base(w)}/import?dryRun=true`)
      .set(w.auth("owner"))
      .set("Content-Type", "text/csv")
      .send("record,id,name\nitem,x,\n");
    expect(bad.status, JSON.stringify(bad.body)).to.equal(400);
    expect(bad.body.details).to.be.an("array").that.is.not.empty;
    const flag = await request(w.app)
      .post(`${base(w)}/import?dryRun=yes`)
      .set(w.auth("owner"))
      .send({});
    expect(flag.status).to.equal(400);
    expect(flag.body.details.map((d: { path: string }) => d.path)).to.include("dryRun");
    expect(snapshot(w.store)).to.equal(before);
  });

  it("is the owner's, like the import", async () => {
    const w = await buildWorld();
    const file = await exportJson(w);
    const member = await request(w.app)
      .post(`${base(w)}/import?dryRun=true`)
      .set(w.auth("member"))
      .send(file);
    expect(member.status).to.equal(403);
  });
});
