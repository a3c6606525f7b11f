import { InvalidRefreshTokenError } from "../../../domain/inventory/errors.js";
import { issueTokenPair, type TokenPair } from "./issue-session.js";
import type { AuthSettings, InventoryPorts } from "../inventory-ports.js";

export interface RefreshTokensInput {
  refreshToken: string;
}

/**
 * Rotates a refresh token: the presented one becomes unusable and a new one of the same
 * family is issued. Presenting a token that was already rotated means someone kept a copy,
 * so the whole family is revoked and both holders must sign in again.
 */
export class RefreshTokens {
  constructor(
    private readonly ports: Pick<InventoryPorts, "users" | "refreshTokens" | "tokens" | "secrets" | "ids" | "clock">,
    private readonly settings: AuthSettings,
  ) {}

  async execute(input: RefreshTokensInput): Promise<TokenPair> {
    const now = this.ports.clock.now();
    const stored = await this.ports.refreshTokens.findByHash(this.ports.secrets.digest(input.refreshToken));
    if (!stored || stored.revokedAt) throw new InvalidRefreshTokenError();
    if (stored.rotatedAt) {
      await this.ports.refreshTokens.revokeFamily(stored.familyId, now);
      throw new InvalidRefreshTokenError();
    }
    if (stored.expiresAt.getTime() <= now.getTime()) throw new InvalidRefreshTokenError();
    if (!(await this.ports.refreshTokens.markRotated(stored.id, now))) {
      // Lost a race against another use of the same token: treat it as a replay.
      await this.ports.refreshTokens.revokeFamily(stored.familyId, now);
      throw new InvalidRefreshTokenError();
    }
    const user = await this.ports.users.findById(stored.userId);
    if (!user || user.deletedAt) throw new InvalidRefreshTokenError();
    return issueTokenPair(this.ports, this.settings, user, stored.familyId);
  }
}
