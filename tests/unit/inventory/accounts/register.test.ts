import { expect } from "chai";
import { expectRejection, inventoryFixture } from "../inventory-fixture.js";

describe("register", () => {
  it("creates the user with a lower-cased email and returns tokens", async () => {
    const { useCases, ports } = inventoryFixture();
    const result = await useCases.register.execute({
      email: " Alice@Example.COM ",
      password: "password123",
      name: " Alice ",
    });
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

  it("refuses the domain reserved for deleted accounts, so nobody can block an account's deletion", async () => {
    const { useCases, registerUser } = inventoryFixture();
    const { user } = await registerUser("Alice");
    const error = await expectRejection(
      useCases.register.execute({
        email: `Deleted+${user.id}@Deleted.Invalid`,
        password: "password123",
        name: "Mallory",
      }),
      "VALIDATION_FAILED",
    );
    expect((error as Error & { details?: { path: string }[] }).details?.map((detail) => detail.path)).to.deep.equal([
      "email",
    ]);
    expect(await useCases.deleteCurrentUser.execute({ userId: user.id })).to.have.property("message");
  });
});
