import { expect } from "chai";
import request from "supertest";
import { buildWorld } from "./inventory-http-world.js";

/** A JSON text nested `depth` levels deep: `{"a":{"a":…"x"…}}`, or arrays. */
function nested(depth: number, kind: "object" | "array" = "object", inner = '"x"'): string {
  return kind === "object"
    ? `${'{"a":'.repeat(depth)}${inner}${"}".repeat(depth)}`
    : `${"[".repeat(depth)}${"]".repeat(depth)}`;
}

describe("inventory HTTP: deeply nested bodies", () => {
  it("answers 400 to a body nested 5 000 deep on /auth/login, an items route and the import, and keeps serving", async () => {
    const w = await buildWorld();
    const base = `/api/v1/households/${w.householdId}`;
    // Inside a field the route knows, so the depth (not an unknown key) is what is refused.
    const deepLogin = `{"email":${nested(5000)},"password":"x"}`;
    const login = await request(w.app)
      .post("/api/v1/auth/login")
      .set("Content-Type", "application/json")
      .send(deepLogin);
    expect(login.status, JSON.stringify(login.body)).to.equal(400);
    expect(login.body).to.include({ statusCode: 400, error: "Bad Request" });
    expect(login.body.details[0].message).to.match(/nested deeper than 32 levels/);

    const arrays = await request(w.app)
      .post("/api/v1/auth/login")
      .set("Content-Type", "application/json")
      .send(nested(40_000, "array"));
    expect(arrays.status, JSON.stringify(arrays.body)).to.equal(400);

    const item = await request(w.app)
      .post(`${base}/items`)
      .set(w.auth("owner"))
      .set("Content-Type", "application/json")
      .send(`{"name":"Peas","quantity":1,"notes":${nested(5000)}}`);
    expect(item.status, JSON.stringify(item.body)).to.equal(400);
    expect(item.body.details[0].path).to.match(/^notes/);

    const reminders = await request(w.app)
      .put(`${base}/reminders`)
      .set(w.auth("owner"))
      .set("Content-Type", "application/json")
      .send(nested(5000));
    expect(reminders.status, JSON.stringify(reminders.body)).to.equal(400);

    const imported = await request(w.app)
      .post(`${base}/import`)
      .set(w.auth("owner"))
      .set("Content-Type", "application/json")
      .send(`{"items":[{"id":"deepitem0001","name":"Peas","quantity":1,"notes":${nested(5000)}}]}`);
    expect(imported.status, JSON.stringify(imported.body)).to.equal(400);
    expect(imported.body.details[0]).to.deep.include({ path: "items[0]" });
    const wholeFile = await request(w.app)
      .post(`${base}/import`)
      .set(w.auth("owner"))
      .set("Content-Type", "application/json")
      .send(nested(5000, "array"));
    expect(wholeFile.status, JSON.stringify(wholeFile.body)).to.equal(400);

    // Still serving: the same routes answer ordinary requests.
    const ok = await request(w.app)
      .post(`${base}/items`)
      .set(w.auth("owner"))
      .send({ name: "Peas", quantity: 1, freezerId: w.freezerId, compartmentId: w.compartmentId });
    expect(ok.status, JSON.stringify(ok.body)).to.equal(201);
    const login2 = await request(w.app)
      .post("/api/v1/auth/login")
      .send({ email: w.users.owner.email, password: "correct horse battery" });
    expect(login2.status).to.equal(200);
  });

  it("still lists NUL characters by path, in document order, and accepts 32 levels of nesting inside a known field's reach", async () => {
    const w = await buildWorld();
    const base = `/api/v1/households/${w.householdId}`;
    const nul = await request(w.app).post(`${base}/items`).set(w.auth("owner")).send({
      name: "Pe\u0000as",
      quantity: 1,
      notes: "a\u0000b",
      freezerId: w.freezerId,
      compartmentId: w.compartmentId,
    });
    expect(nul.status).to.equal(400);
    expect(nul.body.details).to.deep.equal([
      { path: "name", message: "must not contain NUL characters" },
      { path: "notes", message: "must not contain NUL characters" },
    ]);
    // 31 levels below the body: not refused for depth, but by the schema (notes is a string).
    const shallow = await request(w.app)
      .post(`${base}/items`)
      .set(w.auth("owner"))
      .set("Content-Type", "application/json")
      .send(`{"name":"Peas","quantity":1,"notes":${nested(30)}}`);
    expect(shallow.status).to.equal(400);
    expect(shallow.body.details[0].message).not.to.match(/nested deeper/);
  });
});
