import { expect } from "chai";
import { SESSION_TTL_MS, SessionStore } from "../../../src/adapters/http/engine/session-store.js";

function fakeClock(start = Date.UTC(2026, 0, 1)) {
  let now = start;
  return {
    now: () => new Date(now),
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe("SessionStore", () => {
  it("creates random 64-hex-character session ids that validate", () => {
    const store = new SessionStore();
    const a = store.create();
    const b = store.create();
    expect(a.id).to.match(/^[0-9a-f]{64}$/);
    expect(a.id).to.not.equal(b.id);
    expect(store.isValid(a.id)).to.equal(true);
    expect(store.isValid("not-a-session")).to.equal(false);
  });

  it("expires sessions after 30 days", () => {
    const clock = fakeClock();
    const store = new SessionStore({ clock });
    const session = store.create();
    expect(session.expiresAt.getTime() - clock.now().getTime()).to.equal(SESSION_TTL_MS);
    clock.advance(SESSION_TTL_MS - 1);
    expect(store.isValid(session.id)).to.equal(true);
    clock.advance(1);
    expect(store.isValid(session.id)).to.equal(false);
    expect(store.size).to.equal(0);
  });

  it("destroys a session", () => {
    const store = new SessionStore();
    const session = store.create();
    expect(store.destroy(session.id)).to.equal(true);
    expect(store.isValid(session.id)).to.equal(false);
    expect(store.destroy(session.id)).to.equal(false);
  });

  it("prunes expired sessions when new ones are created", () => {
    const clock = fakeClock();
    const store = new SessionStore({ clock, ttlMs: 1000 });
    store.create();
    store.create();
    clock.advance(1000);
    const fresh = store.create();
    expect(store.size).to.equal(1);
    expect(store.isValid(fresh.id)).to.equal(true);
  });

  it("drops the oldest session beyond the cap", () => {
    const store = new SessionStore({ maxSessions: 2 });
    const first = store.create();
    const second = store.create();
    const third = store.create();
    expect(store.isValid(first.id)).to.equal(false);
    expect(store.isValid(second.id)).to.equal(true);
    expect(store.isValid(third.id)).to.equal(true);
  });
});
