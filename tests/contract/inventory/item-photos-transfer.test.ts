import { expect } from "chai";
import sharp from "sharp";
import request from "supertest";
import { type ItemsHttpWorld, knexItemsWorld, memoryItemsWorld } from "../../support/items-http.js";
import { EXIF_MARKER, phonePhoto } from "../../support/test-photos.js";
import { acquireDatabase } from "../../support/test-servers.js";

type Build = () => Promise<ItemsHttpWorld>;

const postgresWorld: Build = async () => {
  const server = await acquireDatabase("item photos transfer");
  const world = await knexItemsWorld(server.url);
  return {
    ...world,
    close: async () => {
      await world.close();
      await server.release();
    },
  };
};

function text(response: request.Request) {
  return response.buffer(true).parse((res, done) => {
    let body = "";
    res.setEncoding("utf8");
    res.on("data", (chunk: string) => {
      body += chunk;
    });
    res.on("end", () => done(null, body));
  });
}

/** Exports a household with a photo from one installation and imports it into another. */
function describeTransfer(label: string, buildSource: Build, buildTarget: Build): void {
  describe(`item photos in export and import: ${label}`, function () {
    this.timeout(60_000);
    let source: ItemsHttpWorld;
    let target: ItemsHttpWorld;
    before(async () => {
      [source, target] = await Promise.all([buildSource(), buildTarget()]);
    });
    after(async () => {
      await Promise.all([source?.close(), target?.close()]);
    });

    const auth = (w: ItemsHttpWorld, who: "owner" | "member" = "owner") => ({
      Authorization: `Bearer ${w[who].token}`,
    });
    const importFile = (body: string) =>
      request(target.app)
        .post(`/api/v1/households/${target.hid}/import`)
        .set(auth(target))
        .set("Content-Type", "application/json")
        .send(body);
    const itemCount = async () =>
      (await request(target.app).get(`/api/v1/households/${target.hid}/items`).set(auth(target))).body.total;

    it("JSON carries the display photo (no metadata); the import restores it; CSV leaves it out", async () => {
      const created = await request(source.app)
        .post(`/api/v1/households/${source.hid}/items`)
        .set(auth(source, "member"))
        .send({ name: "Lasagne", quantity: 1, freezerId: source.freezerId, compartmentId: source.compartmentIds[0] });
      const put = await request(source.app)
        .put(`/api/v1/households/${source.hid}/items/${created.body.id}/photo`)
        .set(auth(source, "member"))
        .set("Content-Type", "image/jpeg")
        .send(await phonePhoto(64, 32));
      expect(put.status).to.equal(200);

      const json = await text(request(source.app).get(`/api/v1/households/${source.hid}/export`).set(auth(source)));
      const file = JSON.parse(json.body as string);
      expect(file.photos).to.have.length(1);
      expect(file.photos[0]).to.include({ itemId: created.body.id, contentType: "image/jpeg" });
      const image = Buffer.from(file.photos[0].data, "base64");
      const meta = await sharp(image).metadata();
      expect([meta.width, meta.height]).to.deep.equal([32, 64]);
      expect(meta.exif).to.equal(undefined);
      expect(image.includes(EXIF_MARKER)).to.equal(false);

      const csv = await text(
        request(source.app).get(`/api/v1/households/${source.hid}/export?format=csv`).set(auth(source)),
      );
      expect(csv.body as string).to.include("Lasagne");
      expect((csv.body as string).split("\r\n")[0]).not.to.match(/photo/i);
      expect(csv.body as string).not.to.include(file.photos[0].data.slice(0, 40));

      const imported = await importFile(json.body as string);
      expect(imported.status, JSON.stringify(imported.body)).to.equal(200);
      expect(imported.body.itemsCreated).to.equal(1);
      const item = await request(target.app)
        .get(`/api/v1/households/${target.hid}/items/${created.body.id}`)
        .set(auth(target, "member"));
      expect(item.body.photo).to.be.an("object");
      const thumb = await request(target.app)
        .get(item.body.photo.thumbUrl)
        .set(auth(target, "member"))
        .buffer(true)
        .parse((res, done) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () => done(null, Buffer.concat(chunks)));
        });
      expect(thumb.status).to.equal(200);
      const thumbMeta = await sharp(thumb.body as Buffer).metadata();
      expect([thumbMeta.width, thumbMeta.height]).to.deep.equal([256, 256]);

      // Again: the item is already there and keeps its photo; nothing new.
      const again = await importFile(json.body as string);
      expect(again.status).to.equal(200);
      expect(again.body).to.include({ itemsCreated: 0, itemsUnchanged: 1 });
    });

    it("refuses a photo that is no image, one of an item not in the file, and one twice, writing nothing", async () => {
      const before = await itemCount();
      const item = (id: string) => ({
        id,
        name: "Hostile",
        quantity: 1,
        freezerName: "Imported",
        compartmentName: "Shelf",
      });
      const jpeg = (await phonePhoto(8, 8)).toString("base64");
      const hostile = {
        format: "hearth-household",
        version: 1,
        items: [item("hostileitem00000000000001"), item("hostileitem00000000000002")],
        photos: [
          {
            itemId: "hostileitem00000000000001",
            contentType: "image/jpeg",
            data: Buffer.from("<svg/>").toString("base64"),
          },
          { itemId: "notinthefile0000000000001", data: jpeg },
          { itemId: "hostileitem00000000000002", data: jpeg },
          { itemId: "hostileitem00000000000002", data: jpeg },
          { itemId: "hostileitem00000000000002", data: "!!not base64!!" },
        ],
      };
      const response = await importFile(JSON.stringify(hostile));
      expect(response.status, JSON.stringify(response.body)).to.equal(400);
      const paths = response.body.details.map((detail: { path: string }) => detail.path);
      expect(paths).to.deep.equal(["photos[0]", "photos[1]", "photos[3]", "photos[4]"]);
      expect(await itemCount()).to.equal(before);
    });

    it("refuses a photo row longer than the photo limit allows while reading it", async () => {
      const before = await itemCount();
      const huge = `{"format":"hearth-household","version":1,"items":[],"photos":[{"itemId":"x","data":"${"A".repeat(
        15 * 1024 * 1024,
      )}"}]}`;
      const response = await importFile(huge);
      expect(response.status).to.equal(400);
      expect(response.body.details[0].path).to.equal("photos[0]");
      expect(await itemCount()).to.equal(before);
    });
  });
}

describeTransfer("memory → PGlite", memoryItemsWorld, () => knexItemsWorld());
describeTransfer("PGlite → memory", () => knexItemsWorld(), memoryItemsWorld);
describeTransfer("memory → PostgreSQL", memoryItemsWorld, postgresWorld);
