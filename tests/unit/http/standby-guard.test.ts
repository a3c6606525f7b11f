import { expect } from "chai";
import express from "express";
import request from "supertest";
import { refuseOnStandby } from "../../../src/adapters/http/engine/standby-guard.js";
import type { LeadershipStatus } from "../../../src/ports/leader-lease.js";

describe("refuseOnStandby (engine writes only where they are stored)", () => {
  let status: LeadershipStatus;
  const app = (methods: "writes" | "all") => {
    const built = express();
    built.use(refuseOnStandby(() => status, methods));
    built.all("/{*any}", (_req, res) => {
      res.json({ handled: true });
    });
    return built;
  };

  it("lets everything through without a lease and on a confirmed leader", async () => {
    status = { role: "single", instance: "solo", leader: null };
    await request(app("all")).put("/state/x").expect(200, { handled: true });
    status = { role: "leader", instance: "a", leader: "a", leaseConfirmed: true, takeoverMs: 4000 };
    await request(app("all")).post("/webhook/x").expect(200);
  });

  it("refuses writes on a standby naming the leader, with Retry-After the takeover time; reads pass", async () => {
    status = { role: "standby", instance: "b", leader: "a", takeoverMs: 2000 };
    const refused = await request(app("writes")).put("/state/x").expect(503);
    expect(refused.headers["retry-after"]).to.equal("2");
    expect(refused.body).to.include({ error: "Service Unavailable", leader: "a" });
    expect(refused.body.message).to.include("(b) is a hot standby").and.include("leader is a");
    await request(app("writes")).get("/state/x").expect(200);
    await request(app("all")).get("/webhook/x").expect(503);
  });

  it("refuses writes on a leader back from a stall until its lease is confirmed", async () => {
    status = { role: "leader", instance: "a", leader: "a", leaseConfirmed: false, takeoverMs: 4000 };
    const refused = await request(app("writes")).delete("/state/x").expect(503);
    expect(refused.headers["retry-after"]).to.equal("1");
    expect(refused.body.message).to.include("confirming its engine lease");
    await request(app("writes")).get("/state/x").expect(200);
  });
});
