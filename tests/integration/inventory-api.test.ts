import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "chai";
import request from "supertest";
import { MemoryLogger } from "../../src/adapters/logging/memory-logger.js";
import { loadConfig } from "../../src/composition/config.js";
import { buildInventoryApi, resolveJwtSecret } from "../../src/composition/inventory-api.js";
import { useMigratedDatabase } from "../support/migrated-database.js";

describe("inventory API over the knex repositories (buildInventoryApi)", () => {
  const database = useMigratedDatabase({ acquired: "inventory API" });
  let api: Awaited<ReturnType<typeof buildInventoryApi>>;

  before(async () => {
    api = await buildInventoryApi({
      config: loadConfig({ JWT_SECRET: "integration-test-secret-0123456789abcdef" }),
      database: database(),
      logger: new MemoryLogger(),
    });
  });
  after(async () => {
    await api?.close();
  });

  it("runs the household lifecycle end to end", async () => {
    const app = request(api.app);
    const owner = await app
      .post("/api/v1/auth/register")
      .send({ email: "Owner@Example.com", password: "password123", name: "Owner" });
    expect(owner.status).to.equal(201);
    const member = await app
      .post("/api/v1/auth/register")
      .send({ email: "member@example.com", password: "password123", name: "Member" });
    const asOwner = { Authorization: `Bearer ${owner.body.accessToken}` };
    const asMember = { Authorization: `Bearer ${member.body.accessToken}` };

    const household = await app.post("/api/v1/households").set(asOwner).send({ name: "Home" });
    expect(household.status).to.equal(201);
    const hid = household.body.id;
    const invite = await app.post(`/api/v1/households/${hid}/invites`).set(asOwner);
    expect((await app.post("/api/v1/invites/accept").set(asMember).send({ code: invite.body.code })).status).to.equal(
      200,
    );
    expect((await app.post("/api/v1/invites/accept").set(asMember).send({ code: invite.body.code })).status).to.equal(
      410,
    );

    const freezer = await app.post(`/api/v1/households/${hid}/freezers`).set(asMember).send({ name: "Chest" });
    const base = `/api/v1/households/${hid}/freezers/${freezer.body.id}`;
    await app.post(`${base}/compartments`).set(asMember).send({ name: "b", position: 1 });
    await app.post(`${base}/compartments`).set(asMember).send({ name: "a", position: 1 });
    await app.post(`${base}/compartments`).set(asMember).send({ name: "z" });
    const detail = await app.get(base).set(asMember);
    expect(detail.body.compartments.map((c: { name: string }) => c.name)).to.deep.equal(["z", "a", "b"]);

    const members = await app.get(`/api/v1/households/${hid}`).set(asMember);
    expect(members.body.members.map((m: { role: string }) => m.role)).to.deep.equal(["OWNER", "MEMBER"]);
    const transfer = await app
      .patch(`/api/v1/households/${hid}/transfer`)
      .set(asOwner)
      .send({ newOwnerId: member.body.user.id });
    expect(transfer.body.ownerId).to.equal(member.body.user.id);

    const refreshed = await app.post("/api/v1/auth/refresh").send({ refreshToken: owner.body.refreshToken });
    expect(refreshed.status).to.equal(200);
    const again = await app.post("/api/v1/auth/refresh").send({ refreshToken: owner.body.refreshToken });
    expect(again.body.refreshToken, "the same successor within the reuse interval").to.equal(
      refreshed.body.refreshToken,
    );

    expect((await app.delete(`/api/v1/households/${hid}`).set(asMember)).status).to.equal(200);
    expect(await database().knex("freezers").where({ household_id: hid }).first()).to.equal(undefined);
    expect((await app.delete("/api/v1/users/me").set(asOwner)).status).to.equal(200);
    expect((await app.get("/api/v1/health")).body).to.deep.equal({ status: "ok", checks: { database: "up" } });
  });

  it("generates a development JWT secret once and keeps it in DATA_DIR", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "hearth-jwt-"));
    try {
      const config = loadConfig({ DATA_DIR: dataDir });
      const first = await resolveJwtSecret(config, new MemoryLogger());
      expect(first.length).to.be.at.least(32);
      expect(await resolveJwtSecret(config, new MemoryLogger())).to.equal(first);
      expect((await readFile(path.join(dataDir, "jwt-secret"), "utf8")).trim()).to.equal(first);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
