import { expect } from "chai";
import { startTestHearth, type TestHearth } from "../../support/test-hearth.js";

const ROUNDS = 25;

interface Caller {
  id: string;
  token: string;
}

/**
 * Ownership and membership changes racing each other through the real API, on the test
 * database (PostgreSQL when one is configured): whatever the interleaving, every household
 * keeps exactly one owner who is a member, and a refused invite stays unused.
 */
describe("membership races (integration, parallel requests)", function () {
  this.timeout(180_000);
  let running: TestHearth;
  let base: string;
  let counter = 0;

  before(async () => {
    running = await startTestHearth("membership races", {
      RATE_LIMIT_PER_MINUTE: "100000",
      AUTH_RATE_LIMIT_PER_MINUTE: "100000",
      HTTP_PORT: "0",
    });
    base = `http://127.0.0.1:${running.hearth.apiPort}/api/v1`;
  });
  after(async () => {
    await running?.release();
  });

  async function call(
    method: string,
    path: string,
    caller?: Caller,
    body?: unknown,
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...(caller ? { authorization: `Bearer ${caller.token}` } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  }

  async function register(): Promise<Caller> {
    counter++;
    const response = await call("POST", "/auth/register", undefined, {
      email: `race-${counter}-${Date.now()}@example.com`,
      password: "correct horse battery",
      name: `Racer ${counter}`,
    });
    expect(response.status, JSON.stringify(response.body)).to.equal(201);
    const user = response.body.user as { id: string };
    return { id: user.id, token: response.body.accessToken as string };
  }

  /** A household owned by A with B as a member. */
  async function householdOfTwo(): Promise<{ a: Caller; b: Caller; hid: string }> {
    const [a, b] = [await register(), await register()];
    const hid = (await call("POST", "/households", a, { name: "Race" })).body.id as string;
    const code = (await call("POST", `/households/${hid}/invites`, a, {})).body.code as string;
    expect((await call("POST", "/invites/accept", b, { code })).status).to.equal(200);
    return { a, b, hid };
  }

  /** What the database holds: one OWNER membership per household, and it is owner_id. */
  async function expectOneOwner(hid: string): Promise<void> {
    const knex = running.hearth.database.knex;
    const household = await knex("households").where({ id: hid }).first("owner_id");
    if (!household) return;
    const owners = await knex("memberships").where({ household_id: hid, role: "OWNER" }).select("user_id");
    expect(owners.map((row: { user_id: string }) => row.user_id)).to.deep.equal([household.owner_id]);
  }

  const racers: { name: string; race: (world: { a: Caller; b: Caller; hid: string }) => Promise<number> }[] = [
    { name: "B deletes their account", race: async ({ b }) => (await call("DELETE", "/users/me", b)).status },
    { name: "B leaves", race: async ({ b, hid }) => (await call("POST", `/households/${hid}/leave`, b)).status },
    {
      name: "A removes B",
      race: async ({ a, b, hid }) => (await call("DELETE", `/households/${hid}/members/${b.id}`, a)).status,
    },
  ];

  for (const racer of racers) {
    it(`transfer to B racing "${racer.name}" never leaves a household without an owner (${ROUNDS} rounds)`, async () => {
      const outcomes = new Map<string, number>();
      for (let round = 0; round < ROUNDS; round++) {
        const world = await householdOfTwo();
        const [transfer, other] = await Promise.all([
          call("PATCH", `/households/${world.hid}/transfer`, world.a, { newOwnerId: world.b.id }),
          racer.race(world),
        ]);
        const key = `${transfer.status}/${other}`;
        outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
        // Exactly one of the two may succeed, and neither may fail with a 500.
        expect(
          [transfer.status, other].filter((status) => status === 200),
          key,
        ).to.have.length(1);
        expect([transfer.status, other]).not.to.include(500);
        await expectOneOwner(world.hid);
        const detail = await call("GET", `/households/${world.hid}`, transfer.status === 200 ? world.b : world.a);
        expect(detail.status).to.equal(200);
        const members = detail.body.members as { userId: string; role: string }[];
        expect(members.filter((member) => member.role === "OWNER").map((member) => member.userId)).to.deep.equal([
          detail.body.ownerId,
        ]);
      }
      console.log(`      outcomes (transfer/other): ${JSON.stringify(Object.fromEntries(outcomes))}`);
    });
  }

  it(`one user accepting several invites of a household at once uses up only the one that let them in (${ROUNDS} rounds)`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const [owner, joiner] = [await register(), await register()];
      const hid = (await call("POST", "/households", owner, { name: "Invites" })).body.id as string;
      const codes: string[] = [];
      for (let i = 0; i < 3; i++)
        codes.push((await call("POST", `/households/${hid}/invites`, owner, {})).body.code as string);
      const statuses = await Promise.all(
        codes.map((code) => call("POST", "/invites/accept", joiner, { code }).then((r) => r.status)),
      );
      expect([...statuses].sort()).to.deep.equal([200, 409, 409]);
      const used = await running.hearth.database
        .knex("invites")
        .where({ household_id: hid })
        .whereNotNull("used_at")
        .count({ n: "*" });
      expect(Number(used[0]?.n)).to.equal(1);
      const pending = await call("GET", `/households/${hid}/invites`, owner);
      expect(pending.body).to.be.an("array").with.lengthOf(2);
    }
  });
});
