import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "chai";
import sharp from "sharp";
import request from "supertest";
import type { Caller, ItemsHttpWorld } from "../../support/items-http.js";
import { EXIF_MARKER, hasGpsDirectory, phonePhoto, plainImage } from "../../support/test-photos.js";

/** PUT, GET and DELETE /households/:hid/items/:iid/photo over one app (limit: PHOTO_MAX_BYTES's default, 10 MB). */
export function describeItemPhotosHttpContract(label: string, build: () => Promise<ItemsHttpWorld>): void {
  describe(`item photos HTTP API: ${label}`, function () {
    this.timeout(60_000);
    let w: ItemsHttpWorld;
    let jpeg: Buffer;

    before(async () => {
      w = await build();
      jpeg = await phonePhoto(64, 32);
    });
    after(async () => {
      await w?.close();
    });

    const items = () => `/households/${w.hid}/items`;
    const photoPath = (iid: string, hid = w.hid) => `/api/v1/households/${hid}/items/${iid}/photo`;
    const auth = (caller: Caller) => `Bearer ${caller.token}`;
    const createItem = async (name = "Soup") => {
      const response = await request(w.app)
        .post(`/api/v1${items()}`)
        .set("Authorization", auth(w.member))
        .send({ name, quantity: 2, freezerId: w.freezerId, compartmentId: w.compartmentIds[0] });
      expect(response.status, JSON.stringify(response.body)).to.equal(201);
      return response.body as { id: string; photo: unknown; updatedAt: string };
    };
    const upload = (iid: string, body: Buffer, type = "image/jpeg", caller: Caller = w.member, hid = w.hid) =>
      request(w.app).put(photoPath(iid, hid)).set("Authorization", auth(caller)).set("Content-Type", type).send(body);
    const getItem = async (iid: string) =>
      (await request(w.app).get(`/api/v1${items()}/${iid}`).set("Authorization", auth(w.member))).body;
    const download = (url: string, caller: Caller = w.member) =>
      request(w.app)
        .get(url)
        .set("Authorization", auth(caller))
        .buffer(true)
        .parse((res, done) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () => done(null, Buffer.concat(chunks)));
        });

    it("a member sets a photo: every item answer carries it, both sizes are served upright without metadata", async () => {
      const item = await createItem();
      expect(item.photo).to.equal(null);
      const response = await upload(item.id, jpeg);
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      const photo = response.body.photo as { thumbUrl: string; url: string; updatedAt: string };
      expect(photo.updatedAt).to.equal(response.body.updatedAt);
      const version = new Date(photo.updatedAt).getTime();
      expect(photo.thumbUrl).to.equal(`${photoPath(item.id)}?size=thumb&v=${version}`);
      expect(photo.url).to.equal(`${photoPath(item.id)}?size=display&v=${version}`);
      expect((await getItem(item.id)).photo).to.deep.equal(photo);
      const list = await request(w.app).get(`/api/v1${items()}?limit=100`).set("Authorization", auth(w.owner));
      expect(list.body.data.find((entry: { id: string }) => entry.id === item.id).photo).to.deep.equal(photo);

      for (const [url, size] of [
        [photo.thumbUrl, [256, 256]],
        [photo.url, [32, 64]],
      ] as const) {
        const image = await download(url, w.owner);
        expect(image.status).to.equal(200);
        expect(image.headers["content-type"]).to.equal("image/jpeg");
        expect(image.headers["cache-control"]).to.equal("private, max-age=31536000, immutable");
        const body = image.body as Buffer;
        const meta = await sharp(body).metadata();
        expect([meta.width, meta.height]).to.deep.equal(size);
        expect(meta.exif).to.equal(undefined);
        expect(hasGpsDirectory(meta.exif)).to.equal(false);
        expect(body.includes(EXIF_MARKER)).to.equal(false);
        const again = await request(w.app)
          .get(url)
          .set("Authorization", auth(w.member))
          .set("If-None-Match", image.headers.etag as string);
        expect(again.status).to.equal(304);
      }
      // Without the version the answer must be revalidated.
      const unversioned = await download(photoPath(item.id));
      expect(unversioned.headers["cache-control"]).to.equal("private, no-cache");

      const history = await request(w.app)
        .get(`/api/v1${items()}/${item.id}/history`)
        .set("Authorization", auth(w.member));
      expect(history.body[0]).to.include({ fieldName: "photo", oldValue: null, newValue: photo.updatedAt });
    });

    it("replacing and removing a photo move the version on and write history", async () => {
      const item = await createItem("Peas");
      const first = (await upload(item.id, jpeg)).body.photo;
      const second = await upload(item.id, await plainImage("png"), "image/png");
      expect(second.status).to.equal(200);
      expect(second.body.photo.updatedAt > first.updatedAt).to.equal(true);
      expect((await download(first.url)).headers["cache-control"]).to.equal("private, no-cache");
      const removed = await request(w.app).delete(photoPath(item.id)).set("Authorization", auth(w.owner));
      expect(removed.status).to.equal(200);
      expect(removed.body.photo).to.equal(null);
      expect((await download(second.body.photo.thumbUrl)).status).to.equal(404);
      const history = await request(w.app)
        .get(`/api/v1${items()}/${item.id}/history`)
        .set("Authorization", auth(w.member));
      expect(history.body[0]).to.include({ fieldName: "photo", oldValue: second.body.photo.updatedAt, newValue: null });
      // Removing again changes nothing.
      const again = await request(w.app).delete(photoPath(item.id)).set("Authorization", auth(w.member));
      expect(again.status).to.equal(200);
      expect(again.body.updatedAt).to.equal(removed.body.updatedAt);
    });

    it("415 for a type that is not an image, and for bytes that do not decode, changing nothing", async () => {
      const item = await createItem("Bread");
      const photo = (await upload(item.id, jpeg)).body.photo;
      const before = await getItem(item.id);
      const wrongType = await upload(item.id, jpeg, "text/plain");
      expect(wrongType.status).to.equal(415);
      expect(wrongType.body).to.include({ statusCode: 415, error: "Unsupported Media Type" });
      const noType = await request(w.app).put(photoPath(item.id)).set("Authorization", auth(w.member));
      expect(noType.status).to.equal(415);
      const corrupt = await upload(item.id, Buffer.from("GIF89a but not really an image at all"), "image/jpeg");
      expect(corrupt.status).to.equal(415);
      expect(corrupt.body.message).to.match(/cannot be read/);
      const truncated = await upload(item.id, jpeg.subarray(0, jpeg.length / 2), "image/jpeg");
      expect(truncated.status).to.equal(415);
      const gif = await upload(item.id, await plainImage("gif"), "image/heic");
      expect(gif.status).to.equal(415);
      expect(await getItem(item.id)).to.deep.equal(before);
      expect((await download(photo.thumbUrl)).status).to.equal(200);
    });

    it("413 for a declared size over the limit, and while streaming an undeclared one, changing nothing", async () => {
      const item = await createItem("Ice cream");
      const before = await getItem(item.id);
      const declared = await new Promise<number>((resolve, reject) => {
        const server = w.app.listen(0, "127.0.0.1", () => {
          const { port } = server.address() as AddressInfo;
          const req = http.request(
            {
              port,
              host: "127.0.0.1",
              method: "PUT",
              path: photoPath(item.id),
              headers: {
                Authorization: auth(w.member),
                "Content-Type": "image/jpeg",
                "Content-Length": String(11 * 1024 * 1024),
              },
            },
            (res) => {
              res.resume();
              req.destroy();
              server.close();
              resolve(res.statusCode ?? 0);
            },
          );
          req.on("error", () => undefined);
          // Only the headers: the server refuses before any byte of the body.
          req.flushHeaders();
        });
        server.on("error", reject);
      });
      expect(declared).to.equal(413);

      // Chunked, no length: the answer comes while the client is still sending.
      const streamed = await new Promise<{ status: number; sentWhenAnswered: number; ended: boolean }>(
        (resolve, reject) => {
          const server = w.app.listen(0, "127.0.0.1", () => {
            const { port } = server.address() as AddressInfo;
            let sent = 0;
            let answered = false;
            const chunk = Buffer.alloc(256 * 1024, 7);
            const req = http.request(
              {
                port,
                host: "127.0.0.1",
                method: "PUT",
                path: photoPath(item.id),
                headers: {
                  Authorization: auth(w.member),
                  "Content-Type": "image/jpeg",
                  "Transfer-Encoding": "chunked",
                },
              },
              (res) => {
                answered = true;
                res.resume();
                resolve({ status: res.statusCode ?? 0, sentWhenAnswered: sent, ended: req.writableEnded });
                req.destroy();
                server.close();
              },
            );
            req.on("error", () => undefined);
            const write = () => {
              // Up to 100 MB: far more than the limit, which must cut it off long before.
              while (!answered && sent < 100 * 1024 * 1024) {
                sent += chunk.length;
                if (!req.write(chunk)) {
                  req.once("drain", write);
                  return;
                }
              }
              if (!answered) req.end();
            };
            write();
          });
          server.on("error", reject);
        },
      );
      expect(streamed.status).to.equal(413);
      expect(streamed.ended, "answered before the client finished sending").to.equal(false);
      expect(streamed.sentWhenAnswered).to.be.below(100 * 1024 * 1024);
      expect(await getItem(item.id)).to.deep.equal(before);
    });

    it("an upload cut off by the client changes nothing, and the server goes on answering", async () => {
      const item = await createItem("Dumplings");
      const before = await getItem(item.id);
      await new Promise<void>((resolve, reject) => {
        const server = w.app.listen(0, "127.0.0.1", () => {
          const { port } = server.address() as AddressInfo;
          const req = http.request({
            port,
            host: "127.0.0.1",
            method: "PUT",
            path: photoPath(item.id),
            headers: {
              Authorization: auth(w.member),
              "Content-Type": "image/jpeg",
              "Content-Length": String(jpeg.length),
            },
          });
          req.on("error", () => undefined);
          req.on("close", () => server.close(() => resolve()));
          // Half the photo, then the client is gone.
          req.write(jpeg.subarray(0, Math.floor(jpeg.length / 2)), () => req.destroy());
        });
        server.on("error", reject);
      });
      expect(await getItem(item.id)).to.deep.equal(before);
      expect((await upload(item.id, jpeg)).status).to.equal(200);
    });

    it("outsiders are turned away (403) and another household's item is not found (404)", async () => {
      const item = await createItem("Fish");
      await upload(item.id, jpeg);
      expect((await upload(item.id, jpeg, "image/jpeg", w.outsider)).status).to.equal(403);
      expect((await download(photoPath(item.id), w.outsider)).status).to.equal(403);
      expect((await request(w.app).delete(photoPath(item.id)).set("Authorization", auth(w.outsider))).status).to.equal(
        403,
      );
      expect((await request(w.app).get(photoPath(item.id))).status).to.equal(401);
      expect(
        (await request(w.app).put(photoPath(item.id)).set("Content-Type", "image/jpeg").send(jpeg)).status,
      ).to.equal(401);
      // The outsider's item, addressed through the member's household, and the member's through the outsider's.
      const theirs = await request(w.app)
        .post(`/api/v1/households/${w.outsiderHid}/items`)
        .set("Authorization", auth(w.outsider))
        .send({ name: "Theirs", quantity: 1, freezerId: w.outsiderFreezerId, compartmentId: w.outsiderCompartmentId });
      expect((await upload(theirs.body.id, jpeg)).status).to.equal(404);
      expect((await download(photoPath(theirs.body.id))).status).to.equal(404);
      expect(
        (await request(w.app).delete(photoPath(theirs.body.id)).set("Authorization", auth(w.member))).status,
      ).to.equal(404);
      expect((await upload(item.id, jpeg, "image/jpeg", w.outsider, w.outsiderHid)).status).to.equal(404);
      expect((await download(photoPath("nosuchitem000000000000000"))).status).to.equal(404);
      expect((await download(`${photoPath(item.id)}?size=huge`)).status).to.equal(400);
      expect((await download(`${photoPath(item.id)}?size=thumb&other=1`)).status).to.equal(400);
    });

    it("an archived item keeps its photo, which cannot change until restored; a permanent delete removes it", async () => {
      const item = await createItem("Cake");
      const photo = (await upload(item.id, jpeg)).body.photo;
      expect(
        (await request(w.app).delete(`/api/v1${items()}/${item.id}`).set("Authorization", auth(w.member))).status,
      ).to.equal(200);
      const archived = await getItem(item.id);
      expect(archived.photo).to.deep.equal(photo);
      expect((await upload(item.id, jpeg)).status).to.equal(409);
      expect((await request(w.app).delete(photoPath(item.id)).set("Authorization", auth(w.member))).status).to.equal(
        409,
      );
      expect((await download(photo.thumbUrl)).status).to.equal(200);
      const permanent = await request(w.app)
        .delete(`/api/v1${items()}/${item.id}/permanent`)
        .set("Authorization", auth(w.owner));
      expect(permanent.status).to.equal(200);
      expect((await download(photo.thumbUrl)).status).to.equal(404);
    });
  });
}
