import { expect } from "chai";
import { expectRejection, inventoryFixture } from "../inventory-fixture.js";

describe("login", () => {
  it("signs in with the right password, any email case", async () => {
    const { useCases } = inventoryFixture();
    const registered = await useCases.register.execute({
      email: "bob@example.com",
      password: "password123",
      name: "Bob",
    });
    const result = await useCases.login.execute({ email: "BOB@example.com", password: "password123" });
    expect(result.user).to.deep.equal(registered.user);
    expect(result.refreshToken).to.not.equal(registered.refreshToken);
  });

  it("answers the same for a wrong password and an unknown email, verifying a hash either way", async () => {
    const { useCases, passwords } = inventoryFixture();
    await useCases.register.execute({ email: "bob@example.com", password: "password123", name: "Bob" });
    const wrong = await expectRejection(
      useCases.login.execute({ email: "bob@example.com", password: "nope-nope" }),
      "INVALID_CREDENTIALS",
    );
    const before = passwords.verifications;
    const unknown = await expectRejection(
      useCases.login.execute({ email: "nobody@example.com", password: "nope-nope" }),
      "INVALID_CREDENTIALS",
    );
    expect(passwords.verifications).to.equal(before + 1);
    expect(unknown.message).to.equal(wrong.message).and.to.equal("Invalid credentials");
  });
});
