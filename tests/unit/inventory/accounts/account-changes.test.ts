import { expect } from "chai";
import { expectRejection, inventoryFixture } from "../inventory-fixture.js";

describe("account changes: e-mail, password, signing out everywhere", () => {
  it("changes the e-mail, normalised, and signs in with the new one", async () => {
    const { useCases, registerUser } = inventoryFixture();
    const { user } = await registerUser("Eve");
    const updated = await useCases.updateCurrentUser.execute({ userId: user.id, email: "  Eve.New@Example.COM" });
    expect(updated.email).to.equal("eve.new@example.com");
    const session = await useCases.login.execute({ email: "eve.new@example.com", password: "password123" });
    expect(session.user.id).to.equal(user.id);
  });

  it("refuses an e-mail another account has, or the deleted accounts' domain, changing nothing", async () => {
    const { useCases, registerUser, ports } = inventoryFixture();
    const { user } = await registerUser("Eve");
    const { user: other } = await registerUser("Fay");
    await expectRejection(
      useCases.updateCurrentUser.execute({ userId: user.id, email: other.email.toUpperCase(), name: "X" }),
      "EMAIL_TAKEN",
    );
    await expectRejection(
      useCases.updateCurrentUser.execute({ userId: user.id, email: "deleted+x@deleted.invalid" }),
      "VALIDATION_FAILED",
    );
    const stored = await ports.users.findById(user.id);
    expect(stored).to.include({ email: user.email, name: "Eve" });
  });

  it("keeps the same e-mail without a write", async () => {
    const { useCases, registerUser } = inventoryFixture();
    const { user } = await registerUser("Eve");
    expect(
      await useCases.updateCurrentUser.execute({ userId: user.id, email: user.email.toUpperCase() }),
    ).to.deep.equal({ ...user, role: "admin" });
  });

  it("changes the password only with the current one", async () => {
    const { useCases, registerUser } = inventoryFixture();
    const { user } = await registerUser("Eve");
    await expectRejection(
      useCases.changePassword.execute({
        userId: user.id,
        currentPassword: "wrong-password",
        newPassword: "another one",
      }),
      "WRONG_PASSWORD",
    );
    await useCases.login.execute({ email: user.email, password: "password123" });
    expect(
      await useCases.changePassword.execute({
        userId: user.id,
        currentPassword: "password123",
        newPassword: "another one",
      }),
    ).to.deep.equal({ message: "Password changed" });
    await expectRejection(
      useCases.login.execute({ email: user.email, password: "password123" }),
      "INVALID_CREDENTIALS",
    );
    await useCases.login.execute({ email: user.email, password: "another one" });
  });

  it("a deleted account cannot change anything", async () => {
    const { useCases, registerUser } = inventoryFixture();
    const { user } = await registerUser("Eve");
    await useCases.deleteCurrentUser.execute({ userId: user.id });
    await expectRejection(
      useCases.changePassword.execute({ userId: user.id, currentPassword: "password123", newPassword: "another one" }),
      "AUTHENTICATION_REQUIRED",
    );
    await expectRejection(
      useCases.updateCurrentUser.execute({ userId: user.id, email: "x@example.com" }),
      "AUTHENTICATION_REQUIRED",
    );
  });

  it("signing out everywhere ends every session of the user, and only theirs", async () => {
    const { useCases, registerUser } = inventoryFixture();
    const { user } = await registerUser("Eve");
    const other = await registerUser("Fay");
    const phone = await useCases.login.execute({ email: user.email, password: "password123" });
    const laptop = await useCases.login.execute({ email: user.email, password: "password123" });
    expect(await useCases.logoutEverywhere.execute({ userId: user.id })).to.deep.equal({
      message: "Signed out on all devices",
    });
    await expectRejection(
      useCases.refreshTokens.execute({ refreshToken: phone.refreshToken }),
      "INVALID_REFRESH_TOKEN",
    );
    await expectRejection(
      useCases.refreshTokens.execute({ refreshToken: laptop.refreshToken }),
      "INVALID_REFRESH_TOKEN",
    );
    expect(await useCases.refreshTokens.execute({ refreshToken: other.refreshToken })).to.have.property("accessToken");
  });
});
