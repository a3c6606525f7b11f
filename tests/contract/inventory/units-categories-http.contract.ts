import { expect } from "chai";
import request from "supertest";
import type { Caller, ItemsHttpWorld } from "../../support/items-http.js";

/** Units, categories and their filters over the HTTP API, including every refusal. */
export function describeUnitsCategoriesContract(label: string, build: () => Promise<ItemsHttpWorld>): void {
  describe(`units and categories HTTP API: ${label}`, function () {
    this.timeout(60_000);
    let w: ItemsHttpWorld;
    before(async () => {
      w = await build();
    });
    after(async () => {
      await w?.close();
    });

    const api = (caller: Caller, method: "get" | "post" | "patch" | "delete", path: string, body?: object) =>
      request(w.app)[method](`/api/v1${path}`).set("Authorization", `Bearer ${caller.token}`).send(body);
    const categories = async (caller: Caller, hid = w.hid) => {
      const response = await api(caller, "get", `/households/${hid}/categories`);
      expect(response.status).to.equal(200);
      return response.body as { id: string; key: string | null; name: string; position: number }[];
    };
    const createItem = (caller: Caller, body: object) =>
      api(caller, "post", `/households/${w.hid}/items`, {
        name: "Item",
        quantity: 1,
        freezerId: w.freezerId,
        compartmentId: w.compartmentIds[0],
        ...body,
      });

    describe("categories", () => {
      it("a new household has the nine defaults, with keys, readable by every member", async () => {
        const list = await categories(w.member);
        expect(list.map((category) => category.key)).to.deep.equal([
          "meat",
          "fish",
          "vegetables",
          "fruit",
          "baked_goods",
          "ready_meals",
          "ice_cream",
          "herbs",
          "other",
        ]);
        expect(list[0]).to.include({ name: "Meat", position: 0 });
      });

      it("the owner adds one (last, no key); a name taken ignoring case is 409; members and outsiders get 403", async () => {
        const created = await api(w.owner, "post", `/households/${w.hid}/categories`, { name: "Soups" });
        expect(created.status, JSON.stringify(created.body)).to.equal(201);
        expect(created.body).to.include({ name: "Soups", key: null, position: 9, householdId: w.hid });
        const duplicate = await api(w.owner, "post", `/households/${w.hid}/categories`, { name: " soups " });
        expect(duplicate.status).to.equal(409);
        expect(duplicate.body.error).to.equal("Conflict");
        expect((await api(w.member, "post", `/households/${w.hid}/categories`, { name: "Mine" })).status).to.equal(403);
        expect((await api(w.outsider, "get", `/households/${w.hid}/categories`)).status).to.equal(403);
        expect((await api(w.owner, "post", `/households/${w.hid}/categories`, { name: "" })).status).to.equal(400);
        expect(
          (await api(w.owner, "post", `/households/${w.hid}/categories`, { name: "x", extra: 1 })).status,
        ).to.equal(400);
        expect(
          (await categories(w.owner)).filter((category) => category.name.toLowerCase() === "soups"),
        ).to.have.length(1);
      });

      it("renaming a default ends its key; renaming to a taken name is 409 and changes nothing", async () => {
        const fish = (await categories(w.owner)).find((category) => category.key === "fish")!;
        const renamed = await api(w.owner, "patch", `/households/${w.hid}/categories/${fish.id}`, { name: "Seafood" });
        expect(renamed.status).to.equal(200);
        expect(renamed.body).to.include({ name: "Seafood", key: null });
        const taken = await api(w.owner, "patch", `/households/${w.hid}/categories/${fish.id}`, { name: "MEAT" });
        expect(taken.status).to.equal(409);
        expect((await categories(w.owner)).find((category) => category.id === fish.id)?.name).to.equal("Seafood");
        expect(
          (await api(w.member, "patch", `/households/${w.hid}/categories/${fish.id}`, { name: "Nope" })).status,
        ).to.equal(403);
      });

      it("another household's category is 404 to patch or delete", async () => {
        const foreign = (await categories(w.outsider, w.outsiderHid))[0]!;
        expect(
          (await api(w.owner, "patch", `/households/${w.hid}/categories/${foreign.id}`, { name: "Mine" })).status,
        ).to.equal(404);
        expect((await api(w.owner, "delete", `/households/${w.hid}/categories/${foreign.id}`)).status).to.equal(404);
        expect((await categories(w.outsider, w.outsiderHid))[0]?.name).to.equal(foreign.name);
      });

      it("deleting a category leaves its items without one; members may not delete", async () => {
        const created = await api(w.owner, "post", `/households/${w.hid}/categories`, { name: "Leftovers" });
        const item = await createItem(w.member, { name: "Chili", categoryId: created.body.id });
        expect(item.body.categoryId).to.equal(created.body.id);
        expect((await api(w.member, "delete", `/households/${w.hid}/categories/${created.body.id}`)).status).to.equal(
          403,
        );
        const deleted = await api(w.owner, "delete", `/households/${w.hid}/categories/${created.body.id}`);
        expect(deleted.status).to.equal(200);
        expect(deleted.body.itemsUncategorised).to.equal(1);
        const after = await api(w.member, "get", `/households/${w.hid}/items/${item.body.id}`);
        expect(after.body.categoryId).to.equal(null);
        expect((await api(w.owner, "delete", `/households/${w.hid}/categories/${created.body.id}`)).status).to.equal(
          404,
        );
      });
    });

    describe("item units", () => {
      it("defaults to piece (fractions allowed, as before units) and keeps a spec client's body valid", async () => {
        const item = await createItem(w.member, { quantity: 1.5 });
        expect(item.status).to.equal(201);
        expect(item.body).to.include({ unit: "piece", quantity: 1.5, categoryId: null });
      });

      it("takes decimals in kg, g, l and ml, whole numbers in bags and portions", async () => {
        expect((await createItem(w.member, { unit: "kg", quantity: 1.25 })).body).to.include({ unit: "kg" });
        expect((await createItem(w.member, { unit: "ml", quantity: 12.5 })).status).to.equal(201);
        expect((await createItem(w.member, { unit: "bag", quantity: 3 })).body).to.include({
          unit: "bag",
          quantity: 3,
        });
        const bags = await createItem(w.member, { unit: "bag", quantity: 1.5 });
        expect(bags.status).to.equal(400);
        expect(bags.body.details).to.deep.equal([
          { path: "quantity", message: "must be a whole number when the unit is bag" },
        ]);
        expect((await createItem(w.member, { unit: "portion", quantity: 0.5 })).status).to.equal(400);
      });

      it("refuses a unit outside the list with 400", async () => {
        const response = await createItem(w.member, { unit: "pound" });
        expect(response.status).to.equal(400);
        expect(response.body.details[0].path).to.equal("unit");
      });

      it("a PATCH that leaves a fraction in a whole-number unit is 400 and changes nothing; unit changes are in the history", async () => {
        const item = await createItem(w.member, { unit: "kg", quantity: 1.5 });
        const path = `/households/${w.hid}/items/${item.body.id}`;
        const refused = await api(w.member, "patch", path, { unit: "bag" });
        expect(refused.status).to.equal(400);
        expect(refused.body.details[0].path).to.equal("unit");
        expect((await api(w.member, "get", path)).body).to.include({ unit: "kg", quantity: 1.5 });
        const changed = await api(w.member, "patch", path, { unit: "portion", quantity: 2 });
        expect(changed.status).to.equal(200);
        const history = await api(w.member, "get", `${path}/history`);
        expect(
          history.body.map((entry: { fieldName: string; oldValue: string; newValue: string }) => [
            entry.fieldName,
            entry.oldValue,
            entry.newValue,
          ]),
        ).to.deep.include.members([
          ["quantity", "1.5", "2"],
          ["unit", "kg", "portion"],
        ]);
      });

      it("takes 250 g out of 1 kg (0.75 kg left); grams of bags and half bags are 400", async () => {
        const item = await createItem(w.member, { unit: "kg", quantity: 1 });
        const consume = (body: object) =>
          api(w.member, "post", `/households/${w.hid}/items/${item.body.id}/consume`, body);
        const taken = await consume({ quantity: 250, unit: "g" });
        expect(taken.status).to.equal(200);
        expect(taken.body).to.include({ quantity: 0.75, unit: "kg" });
        const tooMuch = await consume({ quantity: 800, unit: "g" });
        expect(tooMuch.status).to.equal(400);
        expect(tooMuch.body.message).to.equal("Only 0.75 kg left of this item");
        const mismatch = await consume({ quantity: 1, unit: "bag" });
        expect(mismatch.status).to.equal(400);
        expect(mismatch.body.details[0].path).to.equal("unit");
        const bags = await createItem(w.member, { unit: "bag", quantity: 2 });
        const half = await api(w.member, "post", `/households/${w.hid}/items/${bags.body.id}/consume`, {
          quantity: 0.5,
        });
        expect(half.status).to.equal(400);
        expect((await consume({ quantity: 0.75 })).body).to.include({ quantity: 0 });
      });
    });

    describe("item categories", () => {
      it("refuses another household's or an unknown category on create and on PATCH, writing nothing", async () => {
        const foreign = (await categories(w.outsider, w.outsiderHid))[0]!;
        const created = await createItem(w.member, { name: "Smuggled", categoryId: foreign.id });
        expect(created.status).to.equal(400);
        expect(created.body.details).to.deep.equal([
          { path: "categoryId", message: "No such category in this household" },
        ]);
        expect((await createItem(w.member, { categoryId: "zzzzzzzzzzzz" })).status).to.equal(400);
        expect((await createItem(w.member, { categoryId: "Not An Id" })).status).to.equal(400);
        const item = await createItem(w.member, { name: "Peas" });
        const patched = await api(w.member, "patch", `/households/${w.hid}/items/${item.body.id}`, {
          categoryId: foreign.id,
        });
        expect(patched.status).to.equal(400);
        expect((await api(w.member, "get", `/households/${w.hid}/items/${item.body.id}`)).body.categoryId).to.equal(
          null,
        );
        // An outsider learns nothing about the household's categories: 403 first.
        expect(
          (await api(w.outsider, "patch", `/households/${w.hid}/items/${item.body.id}`, { categoryId: foreign.id }))
            .status,
        ).to.equal(403);
      });

      it("filters the list and the expiring list by category, or by none", async () => {
        const list = await categories(w.owner);
        const herbs = list.find((category) => category.key === "herbs")!;
        const basil = await createItem(w.member, { name: "Basil", categoryId: herbs.id, expiresAt: "2020-01-01" });
        const patched = await api(w.member, "patch", `/households/${w.hid}/items/${basil.body.id}`, {
          categoryId: herbs.id,
          notes: "from the garden",
        });
        expect(patched.status).to.equal(200);
        const inHerbs = await api(w.member, "get", `/households/${w.hid}/items?categoryId=${herbs.id}`);
        expect(inHerbs.body.data.map((item: { name: string }) => item.name)).to.deep.equal(["Basil"]);
        expect(inHerbs.body.total).to.equal(1);
        const none = await api(w.member, "get", `/households/${w.hid}/items?categoryId=none&limit=100`);
        expect(none.body.data.every((item: { categoryId: string | null }) => item.categoryId === null)).to.equal(true);
        expect(none.body.data.map((item: { name: string }) => item.name)).not.to.include("Basil");
        const expiring = await api(w.member, "get", `/households/${w.hid}/items/expiring?categoryId=${herbs.id}`);
        expect(expiring.body.data.map((item: { name: string }) => item.name)).to.deep.equal(["Basil"]);
        expect((await api(w.member, "get", `/households/${w.hid}/items?categoryId=Bad!`)).status).to.equal(400);
        const patchNull = await api(w.member, "patch", `/households/${w.hid}/items/${basil.body.id}`, {
          categoryId: null,
        });
        expect(patchNull.body.categoryId).to.equal(null);
      });
    });

    describe("export and import", () => {
      it("carries units and categories through JSON and CSV into another household, mapping category ids by name", async () => {
        const soups = (await categories(w.owner)).find((category) => category.name === "Soups")!;
        const soup = await createItem(w.member, {
          name: "Pumpkin soup",
          unit: "l",
          quantity: 1.5,
          categoryId: soups.id,
        });
        expect(soup.status).to.equal(201);
        const exported = await api(w.owner, "get", `/households/${w.hid}/export`);
        expect(exported.status).to.equal(200);
        const row = exported.body.items.find((item: { id: string }) => item.id === soup.body.id);
        expect(row).to.include({ unit: "l", quantity: 1.5, categoryId: soups.id, categoryName: "Soups" });
        expect(exported.body.categories.map((category: { name: string }) => category.name)).to.include("Soups");

        // Into another household: its places by name and new item ids (ids are each household's
        // own), the categories as exported; the item names its category by the file's id.
        const copyId = `isoup${Date.now().toString(36)}`;
        const file = {
          categories: exported.body.categories,
          items: [
            {
              ...row,
              id: copyId,
              freezerId: null,
              compartmentId: null,
              freezerName: "Chest",
              compartmentName: "Basket",
            },
          ],
        };
        const imported = await request(w.app)
          .post(`/api/v1/households/${w.outsiderHid}/import`)
          .set("Authorization", `Bearer ${w.outsider.token}`)
          .send(file);
        expect(imported.status, JSON.stringify(imported.body)).to.equal(200);
        // Soups and Seafood (the renamed fish) are new there; Meat and the other defaults match by name.
        expect(imported.body).to.include({ itemsCreated: 1, categoriesCreated: 2 });
        const theirs = await categories(w.outsider, w.outsiderHid);
        const theirSoups = theirs.find((category) => category.name === "Soups");
        expect(theirSoups, "Soups created in the other household").to.not.equal(undefined);
        expect(theirSoups?.id).to.not.equal(soups.id);
        const copy = await api(w.outsider, "get", `/households/${w.outsiderHid}/items/${copyId}`);
        expect(copy.body).to.include({ unit: "l", quantity: 1.5, categoryId: theirSoups?.id });

        const csv = await request(w.app)
          .get(`/api/v1/households/${w.hid}/export?format=csv`)
          .set("Authorization", `Bearer ${w.owner.token}`)
          .buffer(true)
          .parse((response, done) => {
            let text = "";
            response.on("data", (chunk: Buffer) => {
              text += chunk.toString("utf8");
            });
            response.on("end", () => done(null, text));
          });
        const text = csv.body as string;
        expect(text.split("\r\n")[0]).to.match(/,unit,categoryId,categoryName,key,checked$/);
        expect(text).to.match(/\r\ncategory,[a-z0-9]+,.*Soups/);
        const again = await request(w.app)
          .post(`/api/v1/households/${w.hid}/import`)
          .set("Authorization", `Bearer ${w.owner.token}`)
          .set("Content-Type", "text/csv")
          .send(text);
        expect(again.status, JSON.stringify(again.body)).to.equal(200);
        expect(again.body).to.include({ itemsCreated: 0, categoriesCreated: 0 });
      });

      it("refuses a file row with a fraction of bags or an unknown unit, writing nothing", async () => {
        const before = (await categories(w.owner)).length;
        const file = {
          categories: [{ id: "knewcategory1", name: "Brand new" }],
          items: [
            {
              id: "ihalfbag00001",
              name: "Half a bag",
              quantity: 1.5,
              unit: "bag",
              freezerName: "Kitchen",
              compartmentName: "Top",
              categoryId: "knewcategory1",
            },
            {
              id: "ibadunit00001",
              name: "Odd",
              quantity: 1,
              unit: "pound",
              freezerName: "Kitchen",
              compartmentName: "Top",
            },
          ],
        };
        const response = await request(w.app)
          .post(`/api/v1/households/${w.hid}/import`)
          .set("Authorization", `Bearer ${w.owner.token}`)
          .send(file);
        expect(response.status).to.equal(400);
        expect(response.body.details.map((detail: { path: string }) => detail.path)).to.deep.equal([
          "items[0]",
          "items[1]",
        ]);
        expect((await categories(w.owner)).length).to.equal(before);
      });
    });
  });
}
