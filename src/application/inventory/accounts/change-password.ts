import { AuthenticationRequiredError, WrongPasswordError } from "../../../domain/inventory/errors.js";
import { requireActiveUser } from "./active-user.js";
import type { Confirmation, InventoryPorts } from "../inventory-ports.js";

export interface ChangePasswordInput {
  userId: string;
  currentPassword: string;
  newPassword: string;
}

/**
 * Changes the signed-in user's password after checking the current one, so a session left
 * open on a shared device cannot lock the owner out. Existing sessions stay; "sign out
 * everywhere" ends them.
 */
export class ChangePassword {
  constructor(private readonly ports: Pick<InventoryPorts, "users" | "passwords" | "clock">) {}

  async execute(input: ChangePasswordInput): Promise<Confirmation> {
    const user = await requireActiveUser(this.ports.users, input.userId);
    if (!(await this.ports.passwords.verify(input.currentPassword, user.passwordHash))) throw new WrongPasswordError();
    const hash = await this.ports.passwords.hash(input.newPassword);
    if (!(await this.ports.users.updatePasswordHash(user.id, hash, this.ports.clock.now()))) {
      throw new AuthenticationRequiredError();
    }
    return { message: "Password changed" };
  }
}
