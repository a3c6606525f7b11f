import { expect } from "chai";
import { expectRejection, inventoryFixture } from "../inventory-fixture.js";

describe("refresh tokens", () => {
  it("rotates: the new pair works, the old refresh token no longer does", async () => {
    const { useCases, ports } = inventoryFixture();
    const session = await useCases.register.execute({ email: "c@example.com", password: "password123", name: "C" });
    const next = await useCases.refreshTokens.execute({ refreshToken: session.refreshToken });
    expect(ports.tokens.verifyAccessToken(next.accessToken)).to.equal(session.user.id);
    expect(next.refreshToken).to.not.equal(session.refreshToken);
    const third = await useCases.refreshTokens.execute({ refreshToken: next.refreshToken });
    expect(third.refreshToken).to.be.a("string");
  });

  it("revokes the whole family when a rotated token is presented again after the reuse interval", async () => {
    const { useCases, clock } = inventoryFixture();
    const session = await useCases.register.execute({ email: "c@example.com", password: "password123", name: "C" });
    const next = await useCases.refreshTokens.execute({ refreshToken: session.refreshToken });
    clock.advance(30_000);
    await expectRejection(
      useCases.refreshTokens.execute({ refreshToken: session.refreshToken }),
      "INVALID_REFRESH_TOKEN",
    );
    await expectRejection(useCases.refreshTokens.execute({ refreshToken: next.refreshToken }), "INVALID_REFRESH_TOKEN");
  });

  it("hands out the same successor when the rotated token comes again within the reuse interval", async () => {
    const { useCases, clock, ports } = inventoryFixture();
    const session = await useCases.register.execute({ email: "c@example.com", password: "password123", name: "C" });
    const next = await useCases.refreshTokens.execute({ refreshToken: session.refreshToken });
    clock.advance(29_999);
    const again = await useCases.refreshTokens.execute({ refreshToken: session.refreshToken });
    expect(again.refreshToken).to.equal(next.refreshToken);
    expect(ports.tokens.verifyAccessToken(again.accessToken)).to.equal(session.user.id);
    expect(await useCases.refreshTokens.execute({ refreshToken: again.refreshToken })).to.have.property("accessToken");
  });

  it("follows a configured reuse interval, and 0 turns the grace off", async () => {
    const { useCases } = inventoryFixture({ refreshReuseIntervalSeconds: 0 });
    const session = await useCases.register.execute({ email: "c@example.com", password: "password123", name: "C" });
    const next = await useCases.refreshTokens.execute({ refreshToken: session.refreshToken });
    await expectRejection(
      useCases.refreshTokens.execute({ refreshToken: session.refreshToken }),
      "INVALID_REFRESH_TOKEN",
    );
    await expectRejection(useCases.refreshTokens.execute({ refreshToken: next.refreshToken }), "INVALID_REFRESH_TOKEN");
  });

  it("does not hand out a successor of a family revoked in the meantime", async () => {
    const { useCases } = inventoryFixture();
    const session = await useCases.register.execute({ email: "c@example.com", password: "password123", name: "C" });
    const next = await useCases.refreshTokens.execute({ refreshToken: session.refreshToken });
    await useCases.logout.execute({ refreshToken: next.refreshToken });
    await expectRejection(
      useCases.refreshTokens.execute({ refreshToken: session.refreshToken }),
      "INVALID_REFRESH_TOKEN",
    );
  });

  it("leaves other sessions alone when one family is revoked", async () => {
    const { useCases, clock } = inventoryFixture();
    const first = await useCases.register.execute({ email: "c@example.com", password: "password123", name: "C" });
    const second = await useCases.login.execute({ email: "c@example.com", password: "password123" });
    await useCases.refreshTokens.execute({ refreshToken: first.refreshToken });
    clock.advance(30_000);
    await expectRejection(
      useCases.refreshTokens.execute({ refreshToken: first.refreshToken }),
      "INVALID_REFRESH_TOKEN",
    );
    expect(await useCases.refreshTokens.execute({ refreshToken: second.refreshToken })).to.have.property("accessToken");
  });

  it("gives two concurrent refreshes of one token the same successor, and stays signed in", async () => {
    const { useCases } = inventoryFixture();
    const session = await useCases.register.execute({ email: "c@example.com", password: "password123", name: "C" });
    const [a, b] = await Promise.all([
      useCases.refreshTokens.execute({ refreshToken: session.refreshToken }),
      useCases.refreshTokens.execute({ refreshToken: session.refreshToken }),
    ]);
    expect(a.refreshToken).to.equal(b.refreshToken);
    expect(await useCases.refreshTokens.execute({ refreshToken: a.refreshToken })).to.have.property("accessToken");
  });

  it("refuses unknown and expired tokens", async () => {
    const { useCases, clock } = inventoryFixture({ refreshTokenTtlSeconds: 60 });
    const session = await useCases.register.execute({ email: "c@example.com", password: "password123", name: "C" });
    await expectRejection(useCases.refreshTokens.execute({ refreshToken: "unknown" }), "INVALID_REFRESH_TOKEN");
    clock.advance(61_000);
    await expectRejection(
      useCases.refreshTokens.execute({ refreshToken: session.refreshToken }),
      "INVALID_REFRESH_TOKEN",
    );
  });
});
