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

  it("revokes the whole family when a rotated token is presented again", async () => {
    const { useCases } = inventoryFixture();
    const session = await useCases.register.execute({ email: "c@example.com", password: "password123", name: "C" });
    const next = await useCases.refreshTokens.execute({ refreshToken: session.refreshToken });
    await expectRejection(
      useCases.refreshTokens.execute({ refreshToken: session.refreshToken }),
      "INVALID_REFRESH_TOKEN",
    );
    await expectRejection(useCases.refreshTokens.execute({ refreshToken: next.refreshToken }), "INVALID_REFRESH_TOKEN");
  });

  it("leaves other sessions alone when one family is revoked", async () => {
    const { useCases } = inventoryFixture();
    const first = await useCases.register.execute({ email: "c@example.com", password: "password123", name: "C" });
    const second = await useCases.login.execute({ email: "c@example.com", password: "password123" });
    await useCases.refreshTokens.execute({ refreshToken: first.refreshToken });
    await expectRejection(
      useCases.refreshTokens.execute({ refreshToken: first.refreshToken }),
      "INVALID_REFRESH_TOKEN",
    );
    expect(await useCases.refreshTokens.execute({ refreshToken: second.refreshToken })).to.have.property("accessToken");
  });

  it("lets only one of two concurrent refreshes of one token through", async () => {
    const { useCases } = inventoryFixture();
    const session = await useCases.register.execute({ email: "c@example.com", password: "password123", name: "C" });
    const results = await Promise.allSettled([
      useCases.refreshTokens.execute({ refreshToken: session.refreshToken }),
      useCases.refreshTokens.execute({ refreshToken: session.refreshToken }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).to.have.length.at.most(1);
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
