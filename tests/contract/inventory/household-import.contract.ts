import type { AddressInfo } from "node:net";
import { expect } from "chai";
import request from "supertest";
import type { Caller, ItemsHttpWorld } from "../../support/items-http.js";
import { IMPORTS_AT_ONCE } from "../../../src/adapters/http/inventory/household-data-routes.js";

/**
 * Holds the households' rows locked from another connection, so parallel imports all get past
 * their validation and queue at the write; `release` lets them go at once. PostgreSQL only:
 * PGlite has one connection, and memory no locks.
 */
export interface ImportGate {
  /** Resolves once `count` requests wait on the held rows. */
  waiting(count: number): Promise<void>;
  release(): Promise<void>;
}

export interface HouseholdImportWorld extends ItemsHttpWorld {
  hold?: (householdIds: string[]) => Promise<ImportGate>;
}

type Answer = { status: number; body: Record<string, unknown> & { details?: { path: string; message: string }[] } };

/** Import answers, item counts, deletes and exports through the real API, on every store. */
export function describeHouseholdImportContract(label: string, build: () => Promise<HouseholdImportWorld>): void {
  describe(`household import: ${label}`, function () {
    this.timeout(60_000);
    let w: HouseholdImportWorld;
    let base: string;
    let close: () => Promise<void>;

    before(async () => {
      w = await build();
      const server = w.app.listen(0, "127.0.0.1");
      await new Promise<void>((resolve) => server.once("listening", resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
      close = () => new Promise<void>((resolve) => server.close(() => resolve()));
    });
    after(async () => {
      await close?.();
      await w?.close();
    });

    const auth = (caller: Caller) => ({ Authorization: `Bearer ${caller.token}` });
    /** One import over a real connection (parallel calls really run in parallel). */
    const importFile = async (
      caller: Caller,
      hid: string,
      body: string | Blob,
      type = "application/json",
    ): Promise<Answer> => {
      const response = await fetch(`${base}/households/${hid}/import`, {
        method: "POST",
        headers: { ...auth(caller), "Content-Type": type },
        body,
      });
      return { status: response.status, body: (await response.json()) as Answer["body"] };
    };
    const exportOf = async (caller: Caller, hid: string) => {
      const response = await request(w.app).get(`/api/v1/households/${hid}/export`).set(auth(caller));
      expect(response.status).to.equal(200);
      const { exportedAt: _exportedAt, ...file } = response.body;
      return file as {
        freezers: { id: string; name: string }[];
        compartments: { id: string; freezerId: string; name: string }[];
        items: { id: string; name: string; notes: string | null; freezerId: string; compartmentId: string }[];
      };
    };
    const csvExportOf = async (caller: Caller, hid: string) => {
      const response = await fetch(`${base}/households/${hid}/export?format=csv`, { headers: auth(caller) });
      expect(response.status).to.equal(200);
      return response.text();
    };
    let counter = 0;
    const newId = (prefix: string) => `${prefix}${String(++counter).padStart(6, "0")}${Date.now().toString(36)}`;

    /** A household of the member's own, with a freezer and a compartment: another household than w.hid. */
    const strangerHousehold = async () => {
      const household = await request(w.app).post("/api/v1/households").set(auth(w.member)).send({ name: "Flat" });
      const freezer = await request(w.app)
        .post(`/api/v1/households/${household.body.id}/freezers`)
        .set(auth(w.member))
        .send({ name: "Tall" });
      const compartment = await request(w.app)
        .post(`/api/v1/households/${household.body.id}/freezers/${freezer.body.id}/compartments`)
        .set(auth(w.member))
        .send({ name: "Top" });
      expect(compartment.status, JSON.stringify(compartment.body)).to.equal(201);
      return {
        hid: household.body.id as string,
        freezerId: freezer.body.id as string,
        compartmentId: compartment.body.id as string,
      };
    };

    it("refuses an item row naming another household's freezer or compartment (with new names), writing nothing; that household then deletes them as usual", async () => {
      const other = await strangerHousehold();
      const before = await exportOf(w.owner, w.hid);
      const file = {
        items: [
          {
            id: newId("cross"),
            name: "Smuggled peas",
            quantity: 1,
            freezerId: other.freezerId,
            freezerName: "Stolen chest",
            compartmentId: other.compartmentId,
            compartmentName: "Stolen basket",
          },
          {
            id: newId("cross"),
            name: "Smuggled beans",
            quantity: 1,
            freezerId: w.freezerId,
            compartmentId: other.compartmentId,
            compartmentName: "Another basket",
          },
        ],
      };
      // Each row alone: the first row's compartment would otherwise be "in" the freezer it names.
      const [foreignFreezer, foreignCompartment] = await Promise.all(
        file.items.map((item) => importFile(w.owner, w.hid, JSON.stringify({ items: [item] }))),
      );
      expect(foreignFreezer?.status, JSON.stringify(foreignFreezer?.body)).to.equal(400);
      expect(foreignFreezer?.body).to.deep.include({ statusCode: 400, error: "Bad Request" });
      expect(foreignFreezer?.body.details).to.deep.equal([
        { path: "items[0]", message: `freezer ${other.freezerId} belongs to another household` },
        { path: "items[0]", message: `compartment ${other.compartmentId} belongs to another household` },
      ]);
      expect(foreignCompartment?.status, JSON.stringify(foreignCompartment?.body)).to.equal(400);
      expect(foreignCompartment?.body.details).to.deep.equal([
        { path: "items[0]", message: `compartment ${other.compartmentId} belongs to another household` },
      ]);
      expect(await exportOf(w.owner, w.hid)).to.deep.equal(before);

      // Her own empty compartment, freezer and household delete as they always did.
      const outsider = `/api/v1/households/${other.hid}`;
      const compartment = await request(w.app)
        .delete(`${outsider}/freezers/${other.freezerId}/compartments/${other.compartmentId}`)
        .set(auth(w.member));
      expect(compartment.status, JSON.stringify(compartment.body)).to.be.within(200, 204);
      const freezer = await request(w.app).delete(`${outsider}/freezers/${other.freezerId}`).set(auth(w.member));
      expect(freezer.status, JSON.stringify(freezer.body)).to.be.within(200, 204);
      const household = await request(w.app).delete(outsider).set(auth(w.member));
      expect(household.status, JSON.stringify(household.body)).to.be.within(200, 204);
    });

    it("refuses freezer and compartment records carrying another household's ids", async () => {
      const other = await strangerHousehold();
      const before = await exportOf(w.owner, w.hid);
      const file = {
        freezers: [{ id: other.freezerId, name: "Mine now" }],
        compartments: [{ id: other.compartmentId, freezerId: w.freezerId, name: "Mine too" }],
        items: [{ id: newId("record"), name: "Ice", quantity: 1, freezerId: other.freezerId, compartmentName: "Any" }],
      };
      const refused = await importFile(w.owner, w.hid, JSON.stringify(file));
      expect(refused.status, JSON.stringify(refused.body)).to.equal(400);
      expect(refused.body.details).to.deep.include.members([
        { path: "freezers[0]", message: `freezer ${other.freezerId} belongs to another household` },
        { path: "compartments[0]", message: `compartment ${other.compartmentId} belongs to another household` },
      ]);
      expect(await exportOf(w.owner, w.hid)).to.deep.equal(before);
      const theirs = await exportOf(w.member, other.hid);
      expect(theirs.freezers.map((freezer) => freezer.name)).to.deep.equal(["Tall"]);
      expect(theirs.compartments.map((compartment) => compartment.name)).to.deep.equal(["Top"]);
    });

    it("refuses NUL characters in names, notes and freezer or compartment names with 400 naming the row, JSON and CSV", async () => {
      const before = await exportOf(w.owner, w.hid);
      const place = { freezerId: w.freezerId, compartmentId: w.compartmentIds[0] };
      const file = {
        freezers: [{ id: newId("nulfreezer"), name: "Bad\u0000name", description: "also\u0000bad" }],
        compartments: [{ id: newId("nulcomp"), freezerId: w.freezerId, name: "Drawer\u0000" }],
        items: [
          { id: newId("nul"), name: "Pea\u0000s", quantity: 1, ...place },
          { id: newId("nul"), name: "Peas", quantity: 1, notes: "a\u0000b", ...place },
          { id: newId("nul"), name: "Peas", quantity: 1, freezerName: "G\u0000", compartmentName: "Top" },
          { id: newId("nul"), name: "Peas", quantity: 1, freezerId: w.freezerId, compartmentName: "T\u0000p" },
        ],
      };
      const json = await importFile(w.owner, w.hid, JSON.stringify(file));
      expect(json.status, JSON.stringify(json.body)).to.equal(400);
      expect(json.body.details).to.deep.equal([
        {
          path: "freezers[0]",
          message: "name: must not contain NUL characters; description: must not contain NUL characters",
        },
        { path: "compartments[0]", message: "name: must not contain NUL characters" },
        { path: "items[0]", message: "name: must not contain NUL characters" },
        { path: "items[1]", message: "notes: must not contain NUL characters" },
        { path: "items[2]", message: "freezerName: must not contain NUL characters" },
        { path: "items[3]", message: "compartmentName: must not contain NUL characters" },
      ]);
      const csv = await importFile(
        w.owner,
        w.hid,
        `id,name,quantity,freezerId,compartmentId\n${newId("nulcsv")},Pe\u0000as,1,${w.freezerId},${w.compartmentIds[0]}\n`,
        "text/csv",
      );
      expect(csv.status, JSON.stringify(csv.body)).to.equal(400);
      expect(csv.body.details).to.deep.equal([{ path: "row 2", message: "name: must not contain NUL characters" }]);
      // The same words as the items route gives for the same name.
      const direct = await request(w.app)
        .post(`/api/v1/households/${w.hid}/items`)
        .set(auth(w.owner))
        .send({ name: "Pea\u0000s", quantity: 1, ...place });
      expect(direct.status).to.equal(400);
      expect(direct.body.details).to.deep.equal([{ path: "name", message: "must not contain NUL characters" }]);
      expect(await exportOf(w.owner, w.hid)).to.deep.equal(before);
    });

    it("refuses a CSV file in Windows-1252 with 400 naming the row, writing nothing", async () => {
      const before = await exportOf(w.owner, w.hid);
      const file = Buffer.concat([
        Buffer.from(
          `id,name,quantity,freezerId,compartmentId\n${newId("latin")},Peas,1,${w.freezerId},${w.compartmentIds[0]}\n`,
        ),
        Buffer.from(`${newId("latin")},H`),
        Buffer.from([0xe4]), // "ä" in Windows-1252
        Buffer.from(`hnchen,1,${w.freezerId},${w.compartmentIds[0]}\n`),
      ]);
      const answer = await importFile(w.owner, w.hid, new Blob([file]), "text/csv");
      expect(answer.status, JSON.stringify(answer.body)).to.equal(400);
      expect(answer.body.details).to.have.length(1);
      expect(answer.body.details?.[0]?.path).to.equal("row 3");
      expect(answer.body.details?.[0]?.message).to.match(/^is not UTF-8 text; save the file as UTF-8/);
      expect(await exportOf(w.owner, w.hid)).to.deep.equal(before);
    });

    it("writes cells a spreadsheet would run as formulas behind a ' in CSV exports, and reads them back as they were", async () => {
      const cell = (id: string, name: string, notes: string) =>
        `${id},${name},1,${w.otherFreezerId},${w.otherCompartmentId},${notes}`;
      const ids = [newId("formula"), newId("formula"), newId("formula"), newId("formula"), newId("formula")];
      const csv = [
        "id,name,quantity,freezerId,compartmentId,notes",
        cell(ids[0] as string, "'=1+2", "'@SUM(A1)"),
        cell(ids[1] as string, "'+cmd", `"'\tcalc"`),
        cell(ids[2] as string, "'-minus", `"'\rcr"`),
        cell(ids[3] as string, "''=quoted", "'plain"),
        cell(ids[4] as string, "Plain peas", "-"),
      ].join("\r\n");
      const imported = await importFile(w.owner, w.hid, csv, "text/csv");
      expect(imported.status, JSON.stringify(imported.body)).to.equal(200);
      const items = new Map((await exportOf(w.owner, w.hid)).items.map((item) => [item.id, item]));
      const read = ids.map((id) => [items.get(id)?.name, items.get(id)?.notes]);
      expect(read).to.deep.equal([
        ["=1+2", "@SUM(A1)"],
        ["+cmd", "\tcalc"],
        ["-minus", "\rcr"],
        ["'=quoted", "'plain"],
        ["Plain peas", "-"],
      ]);

      const exported = await csvExportOf(w.owner, w.hid);
      for (const [index, expected] of [
        `,'=1+2,1,`,
        `,'@SUM(A1),`,
        `,'+cmd,1,`,
        `,'\tcalc,`,
        `,'-minus,1,`,
        `,"'\rcr",`,
        `,''=quoted,1,`,
        `,'plain,`,
        `,Plain peas,1,`,
        `,'-,`,
      ].entries())
        expect(exported, `cell ${index}`).to.include(expected);
      // No cell of the file starts with a formula character (cells are split on commas outside quotes).
      for (const line of exported.split("\r\n").filter((text) => !text.includes('"'))) {
        for (const value of line.split(",")) expect(value, line).not.to.match(/^[=+\-@\t\r]/);
      }
      // And the exported file imports back unchanged.
      const again = await importFile(w.owner, w.hid, exported, "text/csv");
      expect(again.status, JSON.stringify(again.body)).to.equal(200);
      expect(again.body.itemsCreated).to.equal(0);
      const after = new Map((await exportOf(w.owner, w.hid)).items.map((item) => [item.id, item]));
      expect(ids.map((id) => [after.get(id)?.name, after.get(id)?.notes])).to.deep.equal(read);
    });

    it("ends four parallel imports of one file as if it had been imported once", async () => {
      const names = { freezer: `Garage ${newId("g")}`, compartment: "Bottom drawer" };
      const file = JSON.stringify({
        items: [1, 2, 3].map(() => ({
          id: newId("double"),
          name: "Berries",
          quantity: 2,
          freezerName: names.freezer,
          compartmentName: names.compartment,
        })),
      });
      const gate = await w.hold?.([w.hid]);
      const answers = Promise.all([1, 2, 3, 4].map(() => importFile(w.owner, w.hid, file)));
      if (gate) {
        // The server reads IMPORTS_AT_ONCE imports at a time; the others wait before the lock.
        await gate.waiting(Math.min(4, IMPORTS_AT_ONCE));
        await gate.release();
      }
      const results = await answers;
      expect(
        results.map((answer) => answer.status),
        JSON.stringify(results),
      ).to.deep.equal([200, 200, 200, 200]);
      const total = (field: string) => results.reduce((sum, answer) => sum + Number(answer.body[field]), 0);
      expect([total("freezersCreated"), total("compartmentsCreated"), total("itemsCreated")]).to.deep.equal([1, 1, 3]);
      expect(total("itemsUnchanged")).to.equal(9);
      const after = await exportOf(w.owner, w.hid);
      const garages = after.freezers.filter((freezer) => freezer.name === names.freezer);
      expect(garages).to.have.length(1);
      expect(after.compartments.filter((c) => c.freezerId === garages[0]?.id)).to.have.length(1);
      expect(after.items.filter((item) => item.freezerId === garages[0]?.id)).to.have.length(3);
    });

    it("refuses the loser of two households importing one new item id at once with the documented 400", async () => {
      const shared = newId("shared");
      const freezerName = `Race ${newId("r")}`;
      const file = JSON.stringify({
        items: [{ id: shared, name: "Contested fish", quantity: 1, freezerName, compartmentName: "Drawer" }],
      });
      const gate = await w.hold?.([w.hid, w.outsiderHid]);
      const answers = Promise.all([importFile(w.owner, w.hid, file), importFile(w.outsider, w.outsiderHid, file)]);
      if (gate) {
        await gate.waiting(2);
        await gate.release();
      }
      const results = await answers;
      const statuses = results.map((answer) => answer.status).sort();
      expect(statuses, JSON.stringify(results)).to.deep.equal([200, 400]);
      const winner = results.findIndex((answer) => answer.status === 200);
      const loser = results[1 - winner] as Answer;
      expect(results[winner]?.body).to.deep.include({ itemsCreated: 1, itemsUnchanged: 0 });
      expect(loser.body).to.deep.include({ statusCode: 400, error: "Bad Request" });
      expect(loser.body.details).to.deep.equal([
        { path: "items[0]", message: `id ${shared} belongs to another household` },
      ]);
      // The loser has neither the item nor the freezer its import would have created.
      const [loserCaller, loserHid] = winner === 0 ? [w.outsider, w.outsiderHid] : [w.owner, w.hid];
      const loserFile = await exportOf(loserCaller, loserHid);
      expect(loserFile.items.map((item) => item.id)).not.to.include(shared);
      expect(loserFile.freezers.map((freezer) => freezer.name)).not.to.include(freezerName);
    });

    it("remembers the file's barcodes the household does not know, once, and exports them", async () => {
      const code = `SHOP-${newId("c")}`;
      const itemId = newId("bcitem");
      const file = JSON.stringify({
        items: [
          {
            id: itemId,
            name: "Fish fingers",
            quantity: 1,
            freezerName: "Barcodes",
            compartmentName: "Top",
            barcode: "4006381333931",
          },
        ],
        barcodes: [
          { code, name: "House bread", unit: "g", categoryId: null },
          { code: "96385074", name: "Peas" },
        ],
      });
      await request(w.app)
        .put(`/api/v1/households/${w.hid}/barcodes/96385074`)
        .set(auth(w.owner))
        .send({ name: "Our peas" });
      const first = await importFile(w.owner, w.hid, file);
      expect(first.status, JSON.stringify(first.body)).to.equal(200);
      expect(first.body).to.deep.include({ itemsCreated: 1, barcodesRemembered: 1 });
      const again = await importFile(w.owner, w.hid, file);
      expect(again.body).to.deep.include({ itemsCreated: 0, itemsUnchanged: 1, barcodesRemembered: 0 });
      const remembered = await request(w.app).get(`/api/v1/households/${w.hid}/barcodes/${code}`).set(auth(w.member));
      expect(remembered.body).to.include({ name: "House bread", unit: "g", source: "household" });
      const peas = await request(w.app).get(`/api/v1/households/${w.hid}/barcodes/96385074`).set(auth(w.member));
      expect(peas.body.name).to.equal("Our peas");
      const exported = (await exportOf(w.owner, w.hid)) as unknown as {
        items: { id: string; barcode: string | null }[];
        barcodes: { code: string; name: string }[];
      };
      expect(exported.items.find((item) => item.id === itemId)?.barcode).to.equal("4006381333931");
      expect(exported.barcodes.map((entry) => entry.code)).to.include.members([code, "96385074"]);
    });

    it("previews an import (?dryRun=true) with the counts the import then has, writing nothing", async () => {
      const freezerName = `Preview ${newId("p")}`;
      const kept = (await exportOf(w.owner, w.hid)).items.slice(0, 2);
      const file = JSON.stringify({
        items: [
          ...kept,
          { id: newId("preview"), name: "Plums", quantity: 1, freezerName, compartmentName: "Drawer" },
          { id: newId("preview"), name: "Pears", quantity: 1, freezerName, compartmentName: "Drawer" },
        ],
      });
      const before = await exportOf(w.owner, w.hid);
      const response = await fetch(`${base}/households/${w.hid}/import?dryRun=true`, {
        method: "POST",
        headers: { ...auth(w.owner), "Content-Type": "application/json" },
        body: file,
      });
      const preview = await response.json();
      expect(response.status, JSON.stringify(preview)).to.equal(200);
      const expected = {
        freezersCreated: 1,
        compartmentsCreated: 1,
        categoriesCreated: 0,
        itemsCreated: 2,
        itemsUnchanged: kept.length,
        barcodesRemembered: 0,
        shoppingEntriesAdded: 0,
      };
      expect(preview).to.deep.equal(expected);
      expect(await exportOf(w.owner, w.hid)).to.deep.equal(before);
      const imported = await importFile(w.owner, w.hid, file);
      expect(imported.body).to.deep.equal(expected);
    });
  });
}
