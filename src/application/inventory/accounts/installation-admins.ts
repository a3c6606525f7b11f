import { AccountNotFoundError, AdminRequiredError, LastAdminError } from "../../../domain/inventory/errors.js";
import {
  type CurrentUser,
  describeCurrentUser,
  type InstallationRole,
  type User,
} from "../../../domain/inventory/user.js";
import type { UserRepository } from "../../../ports/user-repository.js";
import { requireActiveUser } from "./active-user.js";
import type { InventoryPorts } from "../inventory-ports.js";

/** The signed-in user, who must be an admin of the installation (403 otherwise). */
export async function requireAdmin(users: Pick<UserRepository, "findById">, userId: string): Promise<User> {
  const user = await requireActiveUser(users, userId);
  if (user.role !== "admin") throw new AdminRequiredError();
  return user;
}

export interface AccountList {
  accounts: CurrentUser[];
  total: number;
  limit: number;
  offset: number;
}

/** The installation's accounts with their roles, for an admin choosing whom to make admin. */
export class ListAccounts {
  constructor(private readonly ports: Pick<InventoryPorts, "users">) {}

  async execute(input: { userId: string; limit: number; offset: number }): Promise<AccountList> {
    await requireAdmin(this.ports.users, input.userId);
    const page = await this.ports.users.listAccounts({ limit: input.limit, offset: input.offset });
    return {
      accounts: page.users.map(describeCurrentUser),
      total: page.total,
      limit: input.limit,
      offset: input.offset,
    };
  }
}

/**
 * Grants or revokes admin. Only admins may; revoking the only admin (oneself included) is
 * refused, so an installation with accounts always keeps someone who can run the house.
 */
export class SetInstallationRole {
  constructor(private readonly ports: Pick<InventoryPorts, "users" | "clock">) {}

  async execute(input: { userId: string; targetId: string; role: InstallationRole }): Promise<CurrentUser> {
    await requireAdmin(this.ports.users, input.userId);
    return changeInstallationRole(this.ports, input.targetId, input.role);
  }
}

/**
 * Gives an account the role without asking who wants it: for `hearth admin grant|revoke`, run by
 * whoever runs the machine, and for the checked route above.
 */
export async function changeInstallationRole(
  ports: Pick<InventoryPorts, "users" | "clock">,
  targetId: string,
  role: InstallationRole,
): Promise<CurrentUser> {
  const result = await ports.users.setRole(targetId, role, ports.clock.now());
  if (result === "last-admin") throw new LastAdminError();
  if (!result) throw new AccountNotFoundError();
  return describeCurrentUser(result);
}
