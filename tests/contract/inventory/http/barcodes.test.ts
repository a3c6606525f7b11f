import { expect } from "chai";
import request from "supertest";
import { FakeOpenFoodFacts } from "../../../support/fake-open-food-facts.js";
import { buildWorld, type InventoryWorld, snapshot } from "./inventory-http-world.js";

const FISH = "4006381333931";
const codeUrl = (w: InventoryWorld, code: string, household = w.householdId) =>
  `/api/v1/households/${household}/barcodes/${encodeURIComponent(code)}`;

describe("inventory HTTP: barcodes", () => {
  describe("the household's memory (lookup off)", () => {
    let w: InventoryWorld;
    beforeEach(async () => {
      w = await buildWorld();
    });

    it("answers 404 for a code nobody saved, then what a member saved, to every member", async () => {
      const unknown = await request(w.app).get(codeUrl(w, FISH)).set(w.auth("member"));
      expect(unknown.status).to.equal(404);
      expect(unknown.body).to.include({ statusCode: 404, error: "Not Found" });

      const saved = await request(w.app)
        .put(codeUrl(w, FISH))
        .set(w.auth("member"))
        .send({ name: " Fish fingers ", unit: "piece", categoryId: null });
      expect(saved.status, JSON.stringify(saved.body)).to.equal(200);
      expect(saved.body).to.include({
        code: FISH,
        name: "Fish fingers",
        unit: "piece",
        categoryId: null,
        source: "household",
      });

      const read = await request(w.app).get(codeUrl(w, FISH)).set(w.auth("owner"));
      expect(read.status).to.equal(200);
      expect(read.body).to.deep.equal(saved.body);
    });

    it("keeps a UPC-A and its EAN-13 form as one code, and accepts digits typed in groups", async () => {
      await request(w.app).put(codeUrl(w, "036000291452")).set(w.auth("member")).send({ name: "Tissues" }).expect(200);
      const asEan = await request(w.app).get(codeUrl(w, "0036000291452")).set(w.auth("member"));
      expect(asEan.body).to.include({ code: "0036000291452", name: "Tissues", unit: null });
      const typed = await request(w.app).get(codeUrl(w, "0 036000 291452")).set(w.auth("member"));
      expect(typed.status).to.equal(200);
    });

    it("accepts EAN-8, UPC-E and other printable codes", async () => {
      for (const code of ["96385074", "01234565", "SHOP-17.b_2~", "ABC123"]) {
        const response = await request(w.app).put(codeUrl(w, code)).set(w.auth("member")).send({ name: "Thing" });
        expect(response.status, `${code}: ${JSON.stringify(response.body)}`).to.equal(200);
        expect(response.body.code).to.equal(code);
      }
    });

    it("refuses a bad code with 400 and stores nothing", async () => {
      const before = snapshot(w.store);
      for (const code of ["4006381333932", "96385075", "a b", "x".repeat(65), "..", "fish/fingers", "ä123"]) {
        const put = await request(w.app).put(codeUrl(w, code)).set(w.auth("member")).send({ name: "Fish" });
        expect(put.status, `${code}: ${JSON.stringify(put.body)}`).to.equal(400);
        const get = await request(w.app).get(codeUrl(w, code)).set(w.auth("member"));
        expect(get.status, code).to.equal(400);
      }
      const checkDigit = await request(w.app).get(codeUrl(w, "4006381333932")).set(w.auth("member"));
      expect(checkDigit.status).to.equal(400);
      expect(checkDigit.body.details[0]).to.include({ path: "code" });
      expect(checkDigit.body.details[0].message).to.match(/check digit/);
      expect(snapshot(w.store)).to.equal(before);
    });

    it("refuses bad bodies with 400 and changes nothing", async () => {
      await request(w.app).put(codeUrl(w, FISH)).set(w.auth("member")).send({ name: "Fish fingers" }).expect(200);
      for (const body of [
        {},
        { name: "" },
        { name: "   " },
        { name: "x".repeat(201) },
        { name: 5 },
        { name: "Fish", unit: "litre" },
        { name: "Fish", categoryId: "not an id!" },
        { name: "Fish", extra: true },
        [],
      ]) {
        const response = await request(w.app).put(codeUrl(w, FISH)).set(w.auth("member")).send(body);
        expect(response.status, JSON.stringify(body)).to.equal(400);
      }
      const read = await request(w.app).get(codeUrl(w, FISH)).set(w.auth("member"));
      expect(read.body.name).to.equal("Fish fingers");
    });

    it("keeps households apart: outsiders get 403, anonymous 401, another household knows nothing", async () => {
      await request(w.app).put(codeUrl(w, FISH)).set(w.auth("member")).send({ name: "Fish fingers" }).expect(200);
      expect((await request(w.app).get(codeUrl(w, FISH)).set(w.auth("outsider"))).status).to.equal(403);
      expect(
        (await request(w.app).put(codeUrl(w, FISH)).set(w.auth("outsider")).send({ name: "Mine" })).status,
      ).to.equal(403);
      expect((await request(w.app).get(codeUrl(w, FISH))).status).to.equal(401);
      // The stranger's own household has not seen the code.
      const theirs = await request(w.app)
        .get(codeUrl(w, FISH, w.other.householdId))
        .set(w.auth("stranger"));
      expect(theirs.status).to.equal(404);
      // And the stranger cannot write into this one.
      const intrusion = await request(w.app).put(codeUrl(w, FISH)).set(w.auth("stranger")).send({ name: "Mine" });
      expect(intrusion.status).to.equal(403);
      expect((await request(w.app).get(codeUrl(w, FISH)).set(w.auth("member"))).body.name).to.equal("Fish fingers");
    });
  });

  describe("the category a code remembers", () => {
    const categoriesOf = async (w: InventoryWorld, household: string, caller: "member" | "stranger") =>
      (await request(w.app).get(`/api/v1/households/${household}/categories`).set(w.auth(caller))).body as {
        id: string;
        name: string;
      }[];

    it("must be one of the household's categories: another household's is a 400 and stores nothing", async () => {
      const w = await buildWorld();
      const [theirs] = await categoriesOf(w, w.other.householdId, "stranger");
      const refused = await request(w.app)
        .put(codeUrl(w, FISH))
        .set(w.auth("member"))
        .send({ name: "Fish fingers", categoryId: theirs!.id });
      expect(refused.status, JSON.stringify(refused.body)).to.equal(400);
      expect((await request(w.app).get(codeUrl(w, FISH)).set(w.auth("member"))).status).to.equal(404);
      const [ours] = await categoriesOf(w, w.householdId, "member");
      const saved = await request(w.app)
        .put(codeUrl(w, FISH))
        .set(w.auth("member"))
        .send({ name: "Fish fingers", categoryId: ours!.id });
      expect(saved.body).to.include({ categoryId: ours!.id });
    });

    it("is answered as none once the category is deleted", async () => {
      const w = await buildWorld();
      const [ours] = await categoriesOf(w, w.householdId, "member");
      await request(w.app)
        .put(codeUrl(w, FISH))
        .set(w.auth("member"))
        .send({ name: "Fish fingers", categoryId: ours!.id })
        .expect(200);
      await request(w.app)
        .delete(`/api/v1/households/${w.householdId}/categories/${ours!.id}`)
        .set(w.auth("owner"))
        .expect(200);
      const read = await request(w.app).get(codeUrl(w, FISH)).set(w.auth("member"));
      expect(read.body).to.include({ name: "Fish fingers", categoryId: null });
    });

    it("from an import file keeps only the household's categories and the file's own, never another household's", async () => {
      const w = await buildWorld();
      const [theirs] = await categoriesOf(w, w.other.householdId, "stranger");
      const [ours] = await categoriesOf(w, w.householdId, "member");
      const file = {
        categories: [{ id: "filecategory1", name: "Soups" }],
        items: [],
        barcodes: [
          { code: "96385074", name: "Peas", categoryId: theirs!.id },
          { code: FISH, name: "Fish fingers", categoryId: ours!.id },
          { code: "SHOP-1", name: "Soup", categoryId: "filecategory1" },
        ],
      };
      const imported = await request(w.app)
        .post(`/api/v1/households/${w.householdId}/import`)
        .set(w.auth("owner"))
        .send(file);
      expect(imported.status, JSON.stringify(imported.body)).to.equal(200);
      const read = async (code: string) =>
        (await request(w.app).get(codeUrl(w, code)).set(w.auth("member"))).body.categoryId as string | null;
      expect(await read("96385074")).to.equal(null);
      expect(await read(FISH)).to.equal(ours!.id);
      const soups = (await categoriesOf(w, w.householdId, "member")).find((category) => category.name === "Soups");
      expect(await read("SHOP-1")).to.equal(soups!.id);
    });
  });

  describe("an item's barcode", () => {
    it("is stored in its normal form, changed and cleared with history, and refused when malformed", async () => {
      const w = await buildWorld();
      const items = `/api/v1/households/${w.householdId}/items`;
      const created = await request(w.app).post(items).set(w.auth("member")).send({
        name: "Tissues",
        quantity: 1,
        freezerId: w.freezerId,
        compartmentId: w.compartmentId,
        barcode: "036000291452",
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      expect(created.body.barcode).to.equal("0036000291452");
      const plain = await request(w.app)
        .post(items)
        .set(w.auth("member"))
        .send({ name: "Soup", quantity: 1, freezerId: w.freezerId, compartmentId: w.compartmentId });
      expect(plain.body.barcode).to.equal(null);

      const before = snapshot(w.store);
      const bad = await request(w.app).post(items).set(w.auth("member")).send({
        name: "Fish",
        quantity: 1,
        freezerId: w.freezerId,
        compartmentId: w.compartmentId,
        barcode: "4006381333932",
      });
      expect(bad.status).to.equal(400);
      expect(bad.body.details[0].path).to.equal("barcode");
      const badPatch = await request(w.app)
        .patch(`${items}/${created.body.id}`)
        .set(w.auth("member"))
        .send({ barcode: 4006381333931 });
      expect(badPatch.status).to.equal(400);
      expect(snapshot(w.store)).to.equal(before);

      const changed = await request(w.app)
        .patch(`${items}/${created.body.id}`)
        .set(w.auth("member"))
        .send({ barcode: FISH });
      expect(changed.body.barcode).to.equal(FISH);
      const cleared = await request(w.app)
        .patch(`${items}/${created.body.id}`)
        .set(w.auth("member"))
        .send({ barcode: null });
      expect(cleared.body.barcode).to.equal(null);
      const history = await request(w.app).get(`${items}/${created.body.id}/history`).set(w.auth("member"));
      expect(
        (history.body as { fieldName: string; oldValue: string | null; newValue: string | null }[]).map((entry) => [
          entry.fieldName,
          entry.oldValue,
          entry.newValue,
        ]),
      ).to.deep.equal([
        ["barcode", FISH, null],
        ["barcode", "0036000291452", FISH],
      ]);
    });

    it("travels through a JSON and a CSV export and import", async () => {
      for (const format of ["json", "csv"] as const) {
        const w = await buildWorld();
        const items = `/api/v1/households/${w.householdId}/items`;
        const ids: string[] = [];
        for (const extra of [{ name: "Fish fingers", barcode: FISH }, { name: "Soup" }]) {
          const created = await request(w.app)
            .post(items)
            .set(w.auth("owner"))
            .send({ quantity: 2, freezerId: w.freezerId, compartmentId: w.compartmentId, ...extra })
            .expect(201);
          ids.push(created.body.id);
        }
        const file = await request(w.app)
          .get(`/api/v1/households/${w.householdId}/export?format=${format}`)
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
        expect(file.status).to.equal(200);
        expect(String(file.body)).to.include(FISH);
        // Gone from the household, then brought back by the file.
        for (const id of ids) {
          await request(w.app).delete(`${items}/${id}`).set(w.auth("owner")).expect(200);
          await request(w.app).delete(`${items}/${id}/permanent`).set(w.auth("owner")).expect(200);
        }
        const imported = await request(w.app)
          .post(`/api/v1/households/${w.householdId}/import`)
          .set(w.auth("owner"))
          .set("Content-Type", format === "csv" ? "text/csv" : "application/json")
          .send(String(file.body));
        expect(imported.status, `${format}: ${JSON.stringify(imported.body)}`).to.equal(200);
        expect(imported.body.itemsCreated).to.equal(2);
        const list = await request(w.app).get(`${items}?sort=name&order=asc`).set(w.auth("owner"));
        expect(
          list.body.data.map((item: { name: string; barcode: string | null }) => [item.name, item.barcode]),
          format,
        ).to.deep.equal([
          ["Fish fingers", FISH],
          ["Soup", null],
        ]);
      }
    });

    it("the household's barcode memory travels through JSON and CSV, without overwriting what a household knows", async () => {
      for (const format of ["json", "csv"] as const) {
        const w = await buildWorld();
        const home = `/api/v1/households/${w.householdId}`;
        await request(w.app)
          .put(codeUrl(w, FISH))
          .set(w.auth("member"))
          .send({ name: "Fish fingers", unit: "piece" })
          .expect(200);
        await request(w.app)
          .put(codeUrl(w, "SHOP-17"))
          .set(w.auth("member"))
          .send({ name: 'Bread, "sliced"', unit: "g" })
          .expect(200);
        const file = await request(w.app)
          .get(`${home}/export?format=${format}`)
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
        const text = String(file.body);
        if (format === "json") {
          expect(
            JSON.parse(text).barcodes.map((entry: { code: string; name: string; unit: string }) => [
              entry.code,
              entry.name,
              entry.unit,
            ]),
          ).to.deep.equal([
            [FISH, "Fish fingers", "piece"],
            ["SHOP-17", 'Bread, "sliced"', "g"],
          ]);
        } else {
          expect(text).to.match(new RegExp(`\\r\\nbarcode,.*${FISH}`));
        }
        // Into the stranger's household, which already calls one of the codes something else.
        await request(w.app)
          .put(codeUrl(w, FISH, w.other.householdId))
          .set(w.auth("stranger"))
          .send({ name: "Fischstäbchen" })
          .expect(200);
        const imported = await request(w.app)
          .post(`/api/v1/households/${w.other.householdId}/import?format=${format}`)
          .set(w.auth("stranger"))
          .set("Content-Type", format === "csv" ? "text/csv" : "application/json")
          // Only the barcode rows: the household's own ids are not the stranger's to import.
          .send(
            format === "json"
              ? JSON.stringify({ barcodes: JSON.parse(text).barcodes })
              : text
                  .split("\r\n")
                  .filter((line, index) => index === 0 || line.startsWith("barcode,"))
                  .join("\r\n"),
          );
        expect(imported.status, `${format}: ${JSON.stringify(imported.body)}`).to.equal(200);
        expect(imported.body.barcodesRemembered, format).to.equal(1);
        const theirs = async (code: string) =>
          (
            await request(w.app)
              .get(codeUrl(w, code, w.other.householdId))
              .set(w.auth("stranger"))
          ).body;
        expect(await theirs(FISH)).to.include({ name: "Fischstäbchen" });
        expect(await theirs("SHOP-17")).to.include({ name: 'Bread, "sliced"', unit: "g", source: "household" });
      }
    });

    it("refuses malformed and duplicate barcode rows in an import, naming them, and writes nothing", async () => {
      const w = await buildWorld();
      const response = await request(w.app)
        .post(`/api/v1/households/${w.householdId}/import`)
        .set(w.auth("owner"))
        .set("Content-Type", "application/json")
        .send({
          barcodes: [
            { code: FISH, name: "Fish" },
            { code: FISH, name: "Fish again" },
            { code: "96385075", name: "Peas" },
            { code: "96385074", name: "Peas", unit: "litre" },
          ],
        });
      expect(response.status).to.equal(400);
      expect(response.body.details.map((detail: { path: string }) => detail.path)).to.deep.equal([
        "barcodes[1]",
        "barcodes[2]",
        "barcodes[3]",
      ]);
      expect((await request(w.app).get(codeUrl(w, FISH)).set(w.auth("owner"))).status).to.equal(404);
    });

    it("is refused in an import when malformed, naming the row", async () => {
      const w = await buildWorld();
      const response = await request(w.app)
        .post(`/api/v1/households/${w.householdId}/import`)
        .set(w.auth("owner"))
        .set("Content-Type", "text/csv")
        .send(
          `id,name,quantity,freezerName,compartmentName,barcode\r\nimported0001,Fish,1,Chest,Top,4006381333932\r\n`,
        );
      expect(response.status).to.equal(400);
      expect(response.body.details[0]).to.include({ path: "row 2" });
      expect(response.body.details[0].message).to.match(/barcode: .*check digit/);
    });
  });

  describe("the product lookup (PRODUCT_LOOKUP_URL, a fake Open Food Facts)", () => {
    let off: FakeOpenFoodFacts;
    let w: InventoryWorld;
    beforeEach(async () => {
      off = await FakeOpenFoodFacts.start();
      off.products.set(FISH, { product_name: "Fischstäbchen\n 15 Stück", generic_name: "Fish fingers" });
      off.products.set("96385074", { product_name: "", generic_name: "Peas" });
      w = await buildWorld({ env: { PRODUCT_LOOKUP_URL: `${off.url}/` } });
    });
    afterEach(async () => {
      await off.close();
    });

    it("asks Open Food Facts for a code the household has not seen, as its API asks to be asked", async () => {
      const response = await request(w.app).get(codeUrl(w, FISH)).set(w.auth("member"));
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      expect(response.body).to.deep.equal({
        code: FISH,
        name: "Fischstäbchen 15 Stück",
        unit: null,
        categoryId: null,
        source: "lookup",
        updatedAt: null,
      });
      const asked = off.requests[0]!;
      expect(asked.path).to.equal(`/api/v2/product/${FISH}`);
      expect(asked.query.get("fields")).to.include("product_name");
      expect(asked.headers["user-agent"]).to.match(/^Hearth\/\S+ \(/);
      // The generic name stands in for an empty product name.
      expect((await request(w.app).get(codeUrl(w, "96385074")).set(w.auth("member"))).body.name).to.equal("Peas");
    });

    it("does not ask about codes the household remembers, nor about codes that are not GTINs", async () => {
      await request(w.app).put(codeUrl(w, FISH)).set(w.auth("member")).send({ name: "Our fish" }).expect(200);
      const remembered = await request(w.app).get(codeUrl(w, FISH)).set(w.auth("member"));
      expect(remembered.body).to.include({ name: "Our fish", source: "household" });
      expect((await request(w.app).get(codeUrl(w, "SHOP-17")).set(w.auth("member"))).status).to.equal(404);
      expect(off.requests).to.have.length(0);
    });

    it("answers 404 (never 500) when the product is unknown or the service misbehaves", async () => {
      expect((await request(w.app).get(codeUrl(w, "12345670")).set(w.auth("member"))).status).to.equal(404);
      for (const mode of ["garbage", "wrong-shape", "huge", "error"] as const) {
        off.mode = mode;
        const response = await request(w.app).get(codeUrl(w, FISH)).set(w.auth("member"));
        expect(response.status, mode).to.equal(404);
        expect(response.body.error).to.equal("Not Found");
      }
      expect(w.logger.entries.some((entry) => entry.level === "warn" && /Product lookup/.test(entry.msg))).to.equal(
        true,
      );
    });

    it("answers 404 when the service is not there at all", async () => {
      await off.close();
      expect((await request(w.app).get(codeUrl(w, FISH)).set(w.auth("member"))).status).to.equal(404);
      off = await FakeOpenFoodFacts.start();
    });
  });
});
