import { AuthenticationRequiredError, EmailAlreadyRegisteredError } from "../../../domain/inventory/errors.js";
import { ValidationError } from "../../../domain/shared/validation-error.js";
import {
  type CurrentUser,
  describeCurrentUser,
  isReservedEmail,
  normaliseEmail,
  type User,
} from "../../../domain/inventory/user.js";
import { requireActiveUser } from "./active-user.js";
import type { InventoryPorts } from "../inventory-ports.js";

export interface UpdateCurrentUserInput {
  userId: string;
  name?: string | undefined;
  email?: string | undefined;
}

/** Renames the signed-in user and/or changes their email (unique, case-insensitively). */
export class UpdateCurrentUser {
  constructor(private readonly ports: Pick<InventoryPorts, "users" | "clock">) {}

  async execute(input: UpdateCurrentUserInput): Promise<CurrentUser> {
    let user: User = await requireActiveUser(this.ports.users, input.userId);
    const now = this.ports.clock.now();
    if (input.email !== undefined) {
      const email = normaliseEmail(input.email);
      if (isReservedEmail(email)) {
        throw new ValidationError("This email address cannot be used", [
          { path: "email", message: "is in a domain reserved for deleted accounts" },
        ]);
      }
      if (email !== user.email) {
        const updated = await this.ports.users.updateEmail(user.id, email, now);
        if (updated === "taken") throw new EmailAlreadyRegisteredError();
        if (!updated) throw new AuthenticationRequiredError();
        user = updated;
      }
    }
    if (input.name !== undefined) {
      const updated = await this.ports.users.updateName(user.id, input.name.trim(), now);
      if (!updated) throw new AuthenticationRequiredError();
      user = updated;
    }
    return describeCurrentUser(user);
  }
}
