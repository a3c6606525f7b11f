import { AuthenticationRequiredError } from "../../../domain/inventory/errors.js";
import type { User } from "../../../domain/inventory/user.js";
import type { UserRepository } from "../../../ports/user-repository.js";

/**
 * The signed-in user's record. An access token outlives nothing: a deleted account's
 * still-unexpired token is treated like no token at all.
 */
export async function requireActiveUser(users: Pick<UserRepository, "findById">, userId: string): Promise<User> {
  const user = await users.findById(userId);
  if (!user || user.deletedAt) throw new AuthenticationRequiredError();
  return user;
}
