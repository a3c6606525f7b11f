import type { User } from "../../../domain/inventory/user.js";
import type { AuthSettings, InventoryPorts } from "../inventory-ports.js";

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
}

/** Issues an access token and a refresh token of `familyId` (a new family for a fresh sign-in). */
export async function issueTokenPair(
  ports: Pick<InventoryPorts, "refreshTokens" | "tokens" | "secrets" | "ids" | "clock">,
  settings: AuthSettings,
  user: Pick<User, "id">,
  familyId: string = ports.ids.next(),
): Promise<TokenPair> {
  const now = ports.clock.now();
  const refreshToken = ports.secrets.generate();
  await ports.refreshTokens.insert({
    id: ports.ids.next(),
    userId: user.id,
    familyId,
    tokenHash: ports.secrets.digest(refreshToken),
    expiresAt: new Date(now.getTime() + settings.refreshTokenTtlSeconds * 1000),
    revokedAt: null,
    rotatedAt: null,
    createdAt: now,
  });
  return { accessToken: ports.tokens.issueAccessToken(user.id).token, refreshToken };
}
