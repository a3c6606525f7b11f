import { UserOwnsHouseholdError } from "../../../domain/inventory/errors.js";
import { anonymisedEmail, DELETED_USER_NAME } from "../../../domain/inventory/user.js";
import { requireActiveUser } from "./active-user.js";
import type { Confirmation, InventoryPorts } from "../inventory-ports.js";

/**
 * Deletes an account by anonymising it: items the user created keep a valid createdBy,
 * but the name, email and password are gone and the memberships and sessions end.
 */
export class DeleteCurrentUser {
  constructor(private readonly ports: Pick<InventoryPorts, "users" | "households" | "secrets" | "clock">) {}

  async execute(input: { userId: string }): Promise<Confirmation> {
    const user = await requireActiveUser(this.ports.users, input.userId);
    if (await this.ports.households.ownsAny(user.id)) throw new UserOwnsHouseholdError();
    await this.ports.users.anonymise({
      id: user.id,
      replacement: {
        name: DELETED_USER_NAME,
        email: anonymisedEmail(user.id),
        // Not a hash any hasher produces, so no password can ever match it.
        passwordHash: `!deleted:${this.ports.secrets.generate()}`,
      },
      at: this.ports.clock.now(),
      // Again over the locked memberships: ownership may have been transferred to this user meanwhile.
      check: (memberships) => {
        if (memberships.some((membership) => membership.role === "OWNER")) throw new UserOwnsHouseholdError();
      },
    });
    return { message: "Account deleted" };
  }
}
