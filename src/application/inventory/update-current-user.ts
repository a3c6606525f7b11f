import { AuthenticationRequiredError } from "../../domain/inventory/errors.js";
import { summariseUser, type UserSummary } from "../../domain/inventory/user.js";
import { requireActiveUser } from "./active-user.js";
import type { InventoryPorts } from "./inventory-ports.js";

export interface UpdateCurrentUserInput {
  userId: string;
  name?: string | undefined;
}

export class UpdateCurrentUser {
  constructor(private readonly ports: Pick<InventoryPorts, "users" | "clock">) {}

  async execute(input: UpdateCurrentUserInput): Promise<UserSummary> {
    const user = await requireActiveUser(this.ports.users, input.userId);
    if (input.name === undefined) return summariseUser(user);
    const updated = await this.ports.users.updateName(user.id, input.name.trim(), this.ports.clock.now());
    if (!updated) throw new AuthenticationRequiredError();
    return summariseUser(updated);
  }
}
