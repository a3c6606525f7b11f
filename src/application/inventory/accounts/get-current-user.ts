import { type CurrentUser, describeCurrentUser } from "../../../domain/inventory/user.js";
import { requireActiveUser } from "./active-user.js";
import type { InventoryPorts } from "../inventory-ports.js";

export class GetCurrentUser {
  constructor(private readonly ports: Pick<InventoryPorts, "users">) {}

  async execute(input: { userId: string }): Promise<CurrentUser> {
    return describeCurrentUser(await requireActiveUser(this.ports.users, input.userId));
  }
}
