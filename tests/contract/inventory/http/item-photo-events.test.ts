import { expect } from "chai";
import request from "supertest";
import { buildWorld } from "./inventory-http-world.js";
import { phonePhoto } from "../../../support/test-photos.js";

describe("item photo events", () => {
  it("setting, replacing and removing a photo each emit item.updated with changes ['photo']; refusals emit nothing", async () => {
    const w = await buildWorld();
    const items = `/api/v1/households/${w.householdId}/items`;
    const created = await request(w.app)
      .post(items)
      .set(w.auth("member"))
      .send({ name: "Dumplings", quantity: 4, freezerId: w.freezerId, compartmentId: w.compartmentId });
    const photo = `${items}/${created.body.id}/photo`;
    const photoEvents = () =>
      w.store.outbox
        .all()
        .filter((event) => event.type === "item.updated" && event.data.item.id === created.body.id)
        .map((event) => (event.type === "item.updated" ? event.data.changes : []));
    const jpeg = await phonePhoto(8, 8);
    await request(w.app).put(photo).set(w.auth("member")).set("Content-Type", "image/jpeg").send(jpeg).expect(200);
    await request(w.app).put(photo).set(w.auth("owner")).set("Content-Type", "image/jpeg").send(jpeg).expect(200);
    await request(w.app)
      .put(photo)
      .set(w.auth("owner"))
      .set("Content-Type", "image/png")
      .send(Buffer.from("nope"))
      .expect(415);
    await request(w.app).delete(photo).set(w.auth("member")).expect(200);
    await request(w.app).delete(photo).set(w.auth("member")).expect(200);
    expect(photoEvents()).to.deep.equal([["photo"], ["photo"], ["photo"]]);
    const last = w.store.outbox.all().at(-1);
    expect(last?.actor).to.deep.equal({ kind: "user", id: w.users.member.id });
  });
});
