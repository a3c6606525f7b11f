import { expect } from "chai";
import { expectRejection, inventoryFixture } from "../inventory-fixture.js";

describe("logout", () => {
  it("revokes the refresh token and answers the same for unknown tokens", async () => {
    const { useCases } = inventoryFixture();
    const session = await useCases.register.execute({ email: "d@example.com", password: "password123", name: "D" });
    expect(await useCases.logout.execute({ refreshToken: session.refreshToken })).to.deep.equal({
      message: "Logged out",
    });
    await expectRejection(
      useCases.refreshTokens.execute({ refreshToken: session.refreshToken }),
      "INVALID_REFRESH_TOKEN",
    );
    expect(await useCases.logout.execute({ refreshToken: "whatever" })).to.have.property("message");
  });
});
