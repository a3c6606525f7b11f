import { expect } from "chai";
import { expectRejection, inventoryFixture } from "./inventory-fixture.js";

describe("register", () => {
  it("creates the user with a lower-cased email and returns tokens", async () => {
    const { useCases, ports } = inventoryFixture();
    const result = await useCases.register.execute({ email: " Alice@Example.COM ", password: "password123", name: " Alice " });
    expect(result.user).to.include({ email: "alice@example.com", name: "Alice" });
    expect(ports.tokens.verifyAccessToken(result.accessToken)).to.equal(result.user.id);
    expect(result.refreshToken).to.match(/^[A-Za-z0-9_-]{43,}$/);
    const stored = await ports.users.findById(result.user.id);
    expect(stored?.passwordHash).to.not.equal("password123");
  });

  it("refuses an email that is taken, whatever its case", async () => {
    const { useCases } = inventoryFixture();
    await useCases.register.execute({ email: "alice@example.com", password: "password123", name: "Alice" });
    await expectRejection(
      useCases.register.execute({ email: "ALICE@example.com", password: "password456", name: "Other" }),
      "EMAIL_TAKEN",
    );
  });
});
