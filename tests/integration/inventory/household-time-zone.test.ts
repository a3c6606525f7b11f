import { expect } from "chai";
import request from "supertest";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";
import { loadConfig } from "../../../src/composition/config.js";
import { buildInventoryApi } from "../../../src/composition/inventory-api.js";
import { useMigratedDatabase } from "../../support/migrated-database.js";

for (const source of ["pglite", { acquired: "household time zone" }] as const) {
  describe(`household time zones (${source === "pglite" ? "PGlite" : "acquired database"})`, () => {
    const database = useMigratedDatabase(source);
    let now = Date.parse("2026-11-26T01:30:00Z");
    let api: Awaited<ReturnType<typeof buildInventoryApi>>;
    before(async () => {
      api = await buildInventoryApi({
        config: loadConfig({
          JWT_SECRET: "time-zone-test-secret-0123456789abcdef",
          AUTH_RATE_LIMIT_PER_MINUTE: "1000",
        }),
        database: database(),
        logger: new MemoryLogger(),
        clock: { now: () => new Date(now) },
      });
    });
    after(() => api.close());

    it("defaults to UTC, takes an IANA zone on create and PATCH, refuses an unknown one with 400", async () => {
      const app = request(api.app);
      const owner = await app
        .post("/api/v1/auth/register")
        .send({ email: `tz-${Date.now()}@example.com`, password: "password123", name: "Anna" });
      const auth = { Authorization: `Bearer ${owner.body.accessToken}` };
      const plain = await app.post("/api/v1/households").set(auth).send({ name: "Home" });
      expect(plain.body.timeZone).to.equal("UTC");
      const refused = await app.post("/api/v1/households").set(auth).send({ name: "Moon", timeZone: "Mars/Base" });
      expect(refused.status).to.equal(400);
      expect(refused.body.details[0].path).to.equal("timeZone");
      const la = await app.post("/api/v1/households").set(auth).send({ name: "LA", timeZone: "America/Los_Angeles" });
      expect(la.status).to.equal(201);
      expect(la.body.timeZone).to.equal("America/Los_Angeles");
      const hid = la.body.id as string;
      expect((await app.get(`/api/v1/households/${hid}`).set(auth)).body.timeZone).to.equal("America/Los_Angeles");
      const list = await app.get("/api/v1/households").set(auth);
      expect(JSON.stringify(list.body)).to.include("America/Los_Angeles");

      const freezer = await app.post(`/api/v1/households/${hid}/freezers`).set(auth).send({ name: "Chest" });
      const compartment = await app
        .post(`/api/v1/households/${hid}/freezers/${freezer.body.id}/compartments`)
        .set(auth)
        .send({ name: "Top" });
      const place = { freezerId: freezer.body.id, compartmentId: compartment.body.id };
      await app
        .post(`/api/v1/households/${hid}/items`)
        .set(auth)
        .send({ name: "Today", quantity: 1, expiresAt: "2026-11-25", ...place });
      await app
        .post(`/api/v1/households/${hid}/items`)
        .set(auth)
        .send({ name: "Tomorrow", quantity: 1, expiresAt: "2026-11-26", ...place });
      // 17:30 on 25 Nov in Los Angeles: only today's food is due today there.
      now = Date.parse("2026-11-26T01:30:00Z");
      const expiring = await app.get(`/api/v1/households/${hid}/items/expiring?days=0`).set(auth);
      expect(expiring.status, JSON.stringify(expiring.body)).to.equal(200);
      expect(expiring.body.data.map((item: { name: string }) => item.name)).to.deep.equal(["Today"]);

      const sydney = await app.patch(`/api/v1/households/${hid}`).set(auth).send({ timeZone: "Australia/Sydney" });
      expect(sydney.status).to.equal(200);
      expect(sydney.body).to.include({ name: "LA", timeZone: "Australia/Sydney" });
      // Now 12:30 on 26 Nov in Sydney: tomorrow's food (26 Nov) is due today there.
      const there = await app.get(`/api/v1/households/${hid}/items/expiring?days=0`).set(auth);
      expect(there.body.data.map((item: { name: string }) => item.name)).to.deep.equal(["Today", "Tomorrow"]);
      expect((await app.patch(`/api/v1/households/${hid}`).set(auth).send({ timeZone: "" })).status).to.equal(400);
    });
  });
}
