import { expect } from "chai";
import request from "supertest";
import { buildWorld, type InventoryWorld, snapshot } from "./inventory-http-world.js";

const base = (w: InventoryWorld) => `/api/v1/households/${w.householdId}`;

async function addItem(w: InventoryWorld, name: string, extra: object = {}) {
  const response = await request(w.app)
    .post(`${base(w)}/items`)
    .set(w.auth("owner"))
    .send({ name, quantity: 2, freezerId: w.freezerId, compartmentId: w.compartmentId, ...extra });
  expect(response.status, JSON.stringify(response.body)).to.equal(201);
  return response.body as { id: string };
}

async function exported(w: InventoryWorld, format: "json" | "csv", household = w.householdId) {
  const response = await request(w.app)
    .get(`/api/v1/households/${household}/export?format=${format}`)
    .set(w.auth("owner"))
    .buffer(true)
    .parse((res, done) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        text += chunk;
      });
      res.on("end", () => done(null, text));
    });
  expect(response.status).to.equal(200);
  return { text: response.body as string, headers: response.headers };
}

describe("inventory HTTP: export and import", () => {
  it("exports freezers, compartments, active and archived items and history as JSON", async () => {
    const w = await buildWorld();
    const kept = await addItem(w, "Peas", { expiresAt: "2026-12-24T00:00:00Z" });
    await request(w.app)
      .patch(`${base(w)}/items/${kept.id}`)
      .set(w.auth("owner"))
      .send({ quantity: 5 });
    const gone = await addItem(w, "Old soup");
    await request(w.app)
      .delete(`${base(w)}/items/${gone.id}`)
      .set(w.auth("owner"));
    const { text, headers } = await exported(w, "json");
    expect(headers["content-type"]).to.match(/application\/json/);
    expect(headers["content-disposition"]).to.match(/attachment; filename="household-.*\.json"/);
    const file = JSON.parse(text);
    expect(file).to.include({ format: "hearth-household", version: 1, householdId: w.householdId });
    expect(file.freezers.map((f: { id: string }) => f.id)).to.include(w.freezerId);
    expect(file.compartments.map((c: { id: string }) => c.id)).to.include(w.compartmentId);
    expect(file.items.map((i: { name: string }) => i.name).sort()).to.deep.equal(["Old soup", "Peas"]);
    expect(file.items.find((i: { name: string }) => i.name === "Old soup").archivedAt).to.be.a("string");
    expect(file.history).to.have.length(1);
    expect(file.history[0]).to.include({ itemId: kept.id, fieldName: "quantity", oldValue: "2", newValue: "5" });
    expect(text).not.to.include("@");
  });

  it("a CSV export imported into another household recreates it, and a second import changes nothing", async () => {
    const w = await buildWorld();
    await addItem(w, 'Stew, "grandma\'s"', { notes: "line one\nline two" });
    const { text } = await exported(w, "csv");
    expect(text.split("\r\n")[0]).to.match(/^record,id,freezerId/);
    // Into the other household the ids collide with this one's: refused, with row numbers.
    const foreign = await request(w.app)
      .post(`/api/v1/households/${w.other.householdId}/import`)
      .set(w.auth("stranger"))
      .set("Content-Type", "text/csv")
      .send(text);
    expect(foreign.status, JSON.stringify(foreign.body)).to.equal(400);
    expect(foreign.body.details.map((d: { path: string }) => d.path)).to.include("row 2");
    // Into its own household: nothing new, every item unchanged.
    const again = await request(w.app)
      .post(`${base(w)}/import`)
      .set(w.auth("owner"))
      .set("Content-Type", "text/csv")
      .send(text);
    expect(again.status, JSON.stringify(again.body)).to.equal(200);
    expect(again.body).to.deep.equal({
      freezersCreated: 0,
      compartmentsCreated: 0,
      categoriesCreated: 0,
      itemsCreated: 0,
      itemsUnchanged: 1,
      barcodesRemembered: 0,
      shoppingEntriesAdded: 0,
    });
  });

  it("creates named missing freezers and compartments, and is idempotent by id", async () => {
    const w = await buildWorld();
    const file = {
      items: [
        {
          id: "imported00001",
          name: "Berries",
          quantity: 3,
          freezerName: "Garage",
          compartmentName: "Bottom drawer",
          expiresAt: "2027-01-01",
        },
        { id: "imported00002", name: "Bread", quantity: 1, freezerId: w.freezerId, compartmentName: "New shelf" },
        { id: "imported00003", name: "Beans", quantity: 1, freezerName: "garage", compartmentName: "bottom drawer" },
      ],
    };
    const first = await request(w.app)
      .post(`${base(w)}/import`)
      .set(w.auth("owner"))
      .send(file);
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    expect(first.body).to.deep.equal({
      freezersCreated: 1,
      compartmentsCreated: 2,
      categoriesCreated: 0,
      itemsCreated: 3,
      itemsUnchanged: 0,
      barcodesRemembered: 0,
      shoppingEntriesAdded: 0,
    });
    const before = snapshot(w.store);
    const second = await request(w.app)
      .post(`${base(w)}/import`)
      .set(w.auth("owner"))
      .send(file);
    expect(second.body).to.deep.equal({
      freezersCreated: 0,
      compartmentsCreated: 0,
      categoriesCreated: 0,
      itemsCreated: 0,
      itemsUnchanged: 3,
      barcodesRemembered: 0,
      shoppingEntriesAdded: 0,
    });
    expect(snapshot(w.store)).to.equal(before);
    const items = await request(w.app)
      .get(`${base(w)}/items?limit=100`)
      .set(w.auth("member"));
    expect(items.body.data.map((i: { name: string }) => i.name)).to.include.members(["Berries", "Bread", "Beans"]);
  });

  it("refuses a file with invalid rows with every row number and reason, writing nothing", async () => {
    const w = await buildWorld();
    const before = snapshot(w.store);
    const csv = [
      "id,name,quantity,freezerId,compartmentId,compartmentName,expiresAt",
      `goodrow00001,Peas,1,${w.freezerId},${w.compartmentId},,`,
      `badrow000002,,1,${w.freezerId},${w.compartmentId},,`,
      `badrow000003,Fish,-2,${w.freezerId},${w.compartmentId},,`,
      `badrow000004,Ice,1,${w.other.freezerId},,,`,
      `badrow000005,Soup,1,${w.freezerId},,,someday`,
      `goodrow00001,Again,1,${w.freezerId},${w.compartmentId},,`,
    ].join("\n");
    const response = await request(w.app)
      .post(`${base(w)}/import`)
      .set(w.auth("owner"))
      .set("Content-Type", "text/csv")
      .send(csv);
    expect(response.status, JSON.stringify(response.body)).to.equal(400);
    expect(response.body).to.include({ statusCode: 400, error: "Bad Request" });
    expect(response.body.message).to.match(/5 invalid rows; nothing was imported/);
    const rows = response.body.details.map((d: { path: string }) => d.path);
    expect(rows).to.deep.equal(["row 3", "row 4", "row 5", "row 6", "row 7"]);
    expect(response.body.details[1].message).to.match(/quantity/);
    expect(snapshot(w.store)).to.equal(before);
  });

  it("answers 400 for unreadable files and 415 for other content types, 403 for members", async () => {
    const w = await buildWorld();
    const broken = await request(w.app)
      .post(`${base(w)}/import`)
      .set(w.auth("owner"))
      .set("Content-Type", "application/json")
      .send('{"items": [');
    expect(broken.status, JSON.stringify(broken.body)).to.equal(400);
    expect(broken.body.details[0].path).to.equal("file");
    const unknownColumn = await request(w.app)
      .post(`${base(w)}/import`)
      .set(w.auth("owner"))
      .set("Content-Type", "text/csv")
      .send("id,colour\nabcdefgh1,red\n");
    expect(unknownColumn.status).to.equal(400);
    const xml = await request(w.app)
      .post(`${base(w)}/import`)
      .set(w.auth("owner"))
      .set("Content-Type", "application/xml")
      .send("<items/>");
    expect(xml.status).to.equal(415);
    const member = await request(w.app)
      .post(`${base(w)}/import`)
      .set(w.auth("member"))
      .send({ items: [] });
    expect(member.status).to.equal(403);
    const badFormat = await request(w.app)
      .get(`${base(w)}/export?format=xml`)
      .set(w.auth("owner"));
    expect(badFormat.status).to.equal(400);
  });

  it("refuses bad expiring queries and reminder bodies with 400 and details", async () => {
    const w = await buildWorld();
    for (const query of ["days=-1", "days=abc", "days=4000", "limit=0", "colour=red"]) {
      const response = await request(w.app)
        .get(`${base(w)}/items/expiring?${query}`)
        .set(w.auth("member"));
      expect(response.status, query).to.equal(400);
      expect(response.body.details, query).to.be.an("array").that.is.not.empty;
    }
    const bad = await request(w.app)
      .put(`${base(w)}/reminders`)
      .set(w.auth("owner"))
      .set("Content-Type", "text/plain")
      .send("enabled");
    expect(bad.status).to.equal(415);
    const settings = await request(w.app)
      .get(`${base(w)}/reminders`)
      .set(w.auth("member"));
    expect(settings.body).to.include({
      enabled: false,
      daysAhead: 3,
      timeOfDay: "18:00",
      channel: null,
      lastSentOn: null,
    });
  });
});
