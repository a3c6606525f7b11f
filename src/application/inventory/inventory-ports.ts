import type { CategoryRepository } from "../../ports/category-repository.js";
import type { Clock } from "../../ports/clock.js";
import type { FreezerRepository } from "../../ports/freezer-repository.js";
import type { HouseholdRepository } from "../../ports/household-repository.js";
import type { IdGenerator } from "../../ports/id-generator.js";
import type { InviteRepository } from "../../ports/invite-repository.js";
import type { PasswordHasher } from "../../ports/password-hasher.js";
import type { RefreshTokenRepository } from "../../ports/refresh-token-repository.js";
import type { SecretGenerator } from "../../ports/secret-generator.js";
import type { TokenService } from "../../ports/token-service.js";
import type { UserRepository } from "../../ports/user-repository.js";

/** Every port the account/household use cases draw from; each use case picks what it needs. */
export interface InventoryPorts {
  users: UserRepository;
  refreshTokens: RefreshTokenRepository;
  households: HouseholdRepository;
  invites: InviteRepository;
  freezers: FreezerRepository;
  categories: CategoryRepository;
  passwords: PasswordHasher;
  tokens: TokenService;
  secrets: SecretGenerator;
  ids: IdGenerator;
  clock: Clock;
}

export interface AuthSettings {
  /** Refresh token lifetime in seconds. */
  refreshTokenTtlSeconds: number;
  /**
   * How long a just-rotated refresh token still yields the same successor (JWT_REFRESH_REUSE_INTERVAL);
   * default DEFAULT_REFRESH_REUSE_INTERVAL_SECONDS.
   */
  refreshReuseIntervalSeconds?: number;
}

/** `message` bodies of the 200 deletes. */
export interface Confirmation {
  message: string;
}

/** A signed-in user acting on one household. */
export interface HouseholdInput {
  userId: string;
  householdId: string;
}
