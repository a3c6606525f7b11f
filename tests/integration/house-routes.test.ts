import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { expect } from "chai";
import type { Router } from "express";
import { type RunningHearth, startHearth } from "../../src/composition/hearth.js";
import { engineDebugApi } from "../../src/composition/engine-routes.js";
import { acquireBroker, type TestBroker } from "../support/test-servers.js";
import { openEventStream } from "../support/event-stream-client.js";

const AUTOMATION = `import { Automation, type Trigger, type TriggerContext } from "hearth";
export default class Porch extends Automation {
  readonly name = "porch";
  readonly triggers: Trigger[] = [{ type: "mqtt", topic: "house-routes/porch" }];
  async execute(_context: TriggerContext): Promise<void> {
    await Promise.resolve();
    this.state.set("porch.seen", true);
  }
}
`;

type Caller = "anonymous" | "outsider" | "member" | "admin";

/** Sample values for the engine routes' path parameters. */
const SAMPLES: Record<string, string> = {
  ":name": "porch",
  ":key": "porch.light",
  "*friendlyName": "kitchen/sensor",
  ":panel": "hallway",
};

/** Every route the engine's debug API router has, read from the router itself, with sample paths. */
function engineRoutesOf(router: Router): { method: string; path: string; template: string }[] {
  const routes: { method: string; path: string; template: string }[] = [];
  for (const layer of router.stack) {
    const route = layer.route as { path: string; methods: Record<string, boolean> } | undefined;
    if (!route) continue;
    const concrete = route.path.replace(/[:*][A-Za-z]+/g, (param) => {
      const sample = SAMPLES[param];
      if (sample === undefined) throw new Error(`no sample value for ${param} in ${route.path}: add one`);
      return sample;
    });
    for (const method of Object.keys(route.methods)) routes.push({ method, path: concrete, template: route.path });
  }
  return routes;
}

function quiet(): Writable {
  return new Writable({ write: (_chunk, _encoding, done) => done() });
}

describe("the engine's routes under /api/v1/house", function () {
  this.timeout(120_000);
  let hearth: RunningHearth;
  let broker: TestBroker;
  let scratch: string;
  let automations: string;
  const tokens = {} as Record<Exclude<Caller, "anonymous">, string>;

  const api = (port: number) => `http://127.0.0.1:${port}`;
  async function call(url: string, method: string, token?: string, body?: unknown) {
    const response = await fetch(url, {
      method: method.toUpperCase(),
      headers: {
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text.length > 0 ? JSON.parse(text) : null };
  }
  async function register(name: string): Promise<string> {
    const response = await call(`${api(hearth.apiPort)}/api/v1/auth/register`, "post", undefined, {
      email: `${name}@example.test`,
      password: "correct horse battery",
      name,
    });
    expect(response.status).to.equal(201);
    return response.body.accessToken as string;
  }
  /** A body the route accepts, so the admin's request gets past validation. */
  const bodyFor = (method: string, template: string): unknown =>
    method === "put" && template === "/state/:key"
      ? { value: "on" }
      : method === "post" && template === "/automations/:name/trigger"
        ? { type: "mqtt", topic: "house-routes/porch", payload: "{}" }
        : undefined;

  before(async () => {
    broker = await acquireBroker("house routes");
    scratch = await mkdtemp(path.join(tmpdir(), "hearth-house-"));
    await mkdir("tmp", { recursive: true });
    // Under the checkout, so the automation's `import "hearth"` resolves.
    automations = await mkdtemp(path.resolve("tmp", "house-routes-"));
    await writeFile(path.join(automations, "porch.ts"), AUTOMATION);
    hearth = await startHearth({
      env: {
        DATA_DIR: path.join(scratch, "data"),
        AUTOMATIONS_DIR: automations,
        MQTT_HOST: broker.host,
        MQTT_PORT: String(broker.port),
        LOG_LEVEL: "warn",
        DEVICE_REGISTRY_ENABLED: "false",
        INVENTORY_MQTT_PREFIX: `house-routes-${Date.now()}/hearth`,
      },
      apiPort: 0,
      httpPort: 0,
      logStream: quiet(),
    });
    tokens.admin = await register("first");
    tokens.member = await register("second");
    tokens.outsider = await register("third");
    // The member shares a household with the admin; the outsider has none of their own.
    const household = await call(`${api(hearth.apiPort)}/api/v1/households`, "post", tokens.admin, { name: "Home" });
    const invite = await call(
      `${api(hearth.apiPort)}/api/v1/households/${household.body.id}/invites`,
      "post",
      tokens.admin,
      {},
    );
    const accepted = await call(`${api(hearth.apiPort)}/api/v1/invites/accept`, "post", tokens.member, {
      code: invite.body.code,
    });
    expect(accepted.status).to.equal(200);
  });

  after(async () => {
    await hearth?.stop();
    await broker?.release();
    if (scratch) await rm(scratch, { recursive: true, force: true });
    if (automations) await rm(automations, { recursive: true, force: true });
  });

  it("lets only the admin through, on every engine route, answering what the engine's own /api answers", async () => {
    const routes = engineRoutesOf(engineDebugApi(hearth.engine, { version: "test", auth: (_q, _s, next) => next() }));
    expect(routes.length).to.be.greaterThan(10);
    const engineToken = hearth.config.HTTP_TOKEN;
    expect(engineToken, "hearth start protects the engine with a token").to.be.a("string");
    for (const { method, path: route, template } of routes) {
      // A stream does not end: its own test below.
      if (template === "/events") continue;
      const house = `${api(hearth.apiPort)}/api/v1/house${route}`;
      const body = bodyFor(method, template);
      expect((await call(house, method, undefined, body)).status, `${method} ${template} signed out`).to.equal(401);
      for (const caller of ["outsider", "member"] as const) {
        const refused = await call(house, method, tokens[caller], body);
        expect(refused.status, `${method} ${template} as ${caller}`).to.equal(403);
        expect(refused.body.message).to.match(/admin/);
      }
      const asAdmin = await call(house, method, tokens.admin, body);
      const asEngine = await call(`${api(hearth.httpPort!)}/api${route}`, method, engineToken, body);
      expect(asAdmin.status, `${method} ${template} as admin`).to.equal(asEngine.status);
      expect(asAdmin.status, `${method} ${template} as admin`).to.not.be.oneOf([401, 403]);
      if (method === "get" && ["/automations", "/automations/:name", "/state", "/services"].includes(template)) {
        expect(asAdmin.body, `${template} body`).to.deep.equal(asEngine.body);
      }
    }
  });

  it("streams the engine's events to the admin (and to the engine token at /api/events), not to others", async () => {
    const house = `${api(hearth.apiPort)}/api/v1/house/events`;
    expect((await openEventStream(house, {})).status).to.equal(401);
    for (const caller of ["outsider", "member"] as const) {
      expect((await openEventStream(house, { Authorization: `Bearer ${tokens[caller]}` })).status).to.equal(403);
    }
    const admin = await openEventStream(house, { Authorization: `Bearer ${tokens.admin}` });
    const engine = await openEventStream(`${api(hearth.httpPort!)}/api/events`, {
      Authorization: `Bearer ${hearth.config.HTTP_TOKEN}`,
    });
    expect(admin.status).to.equal(200);
    expect(engine.status).to.equal(200);
    await admin.comment(": connected");
    await engine.comment(": connected");
    hearth.engine.state.set("house-routes.live", 7);
    for (const stream of [admin, engine]) {
      const change = await stream.next((m) => m.event === "state");
      expect(change.data).to.deep.equal({ key: "house-routes.live", deleted: false, value: 7 });
      stream.close();
    }
  });

  it("does not take the engine token, which is for machines on the engine's port, as an account", async () => {
    const withEngineToken = await call(`${api(hearth.apiPort)}/api/v1/house/status`, "get", hearth.config.HTTP_TOKEN);
    expect(withEngineToken.status).to.equal(401);
  });

  it("stops a revoked admin at once, and lets a newly granted one in", async () => {
    const status = `${api(hearth.apiPort)}/api/v1/house/status`;
    const me = await call(`${api(hearth.apiPort)}/api/v1/users/me`, "get", tokens.member);
    expect(
      (await call(`${api(hearth.apiPort)}/api/v1/admin/admins/${me.body.id}`, "put", tokens.admin)).status,
    ).to.equal(200);
    expect((await call(status, "get", tokens.member)).status).to.equal(200);
    expect(
      (await call(`${api(hearth.apiPort)}/api/v1/admin/admins/${me.body.id}`, "delete", tokens.admin)).status,
    ).to.equal(200);
    expect((await call(status, "get", tokens.member)).status).to.equal(403);
  });
});
