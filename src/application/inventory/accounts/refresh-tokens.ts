import { InvalidRefreshTokenError } from "../../../domain/inventory/errors.js";
import type { RefreshToken } from "../../../domain/inventory/refresh-token.js";
import type { TokenPair } from "./issue-session.js";
import type { AuthSettings, InventoryPorts } from "../inventory-ports.js";

export interface RefreshTokensInput {
  refreshToken: string;
}

/** How long a just-rotated refresh token still yields its successor, unless configured otherwise. */
export const DEFAULT_REFRESH_REUSE_INTERVAL_SECONDS = 30;

/** Separates the successor derivation from any other use of SecretGenerator.derive. */
const SUCCESSOR_PURPOSE = "refresh-token-successor";

/**
 * Rotates a refresh token: the presented one becomes unusable and a new one of the same
 * family is issued. Presenting a token that was already rotated means someone kept a copy,
 * so the whole family is revoked and both holders must sign in again.
 *
 * Except within the reuse interval: two tabs (or the installed app and a tab) that refresh
 * with the same token at once are one holder losing a race, not a thief. For that long after
 * the rotation, the rotated token yields the same successor again (with a fresh access token),
 * as identity providers' "reuse interval" does. The successor's secret is derived from the
 * presented secret under the server's key, so nothing is stored that a database reader could
 * use, and every process sharing the key hands out the same successor.
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
    const successorSecret = this.ports.secrets.derive(input.refreshToken, SUCCESSOR_PURPOSE);
    if (stored.rotatedAt) return this.reissue(stored, successorSecret, now);
    if (stored.expiresAt.getTime() <= now.getTime()) throw new InvalidRefreshTokenError();
    const successor: RefreshToken = {
      id: this.ports.ids.next(),
      userId: stored.userId,
      familyId: stored.familyId,
      tokenHash: this.ports.secrets.digest(successorSecret),
      expiresAt: new Date(now.getTime() + this.settings.refreshTokenTtlSeconds * 1000),
      revokedAt: null,
      rotatedAt: null,
      createdAt: now,
    };
    if (!(await this.ports.refreshTokens.rotate(stored.id, now, successor))) {
      // Another use of the same token rotated it first: judge that use as a reuse.
      const current = await this.ports.refreshTokens.findByHash(stored.tokenHash);
      if (!current || current.revokedAt || !current.rotatedAt) throw new InvalidRefreshTokenError();
      return this.reissue(current, successorSecret, now);
    }
    return this.pair(stored.userId, successorSecret);
  }

  /** A rotated token presented again: its successor within the reuse interval, else theft. */
  private async reissue(rotated: RefreshToken, successorSecret: string, now: Date): Promise<TokenPair> {
    const interval = (this.settings.refreshReuseIntervalSeconds ?? DEFAULT_REFRESH_REUSE_INTERVAL_SECONDS) * 1000;
    const withinInterval = rotated.rotatedAt !== null && now.getTime() - rotated.rotatedAt.getTime() < interval;
    const successor = withinInterval
      ? await this.ports.refreshTokens.findByHash(this.ports.secrets.digest(successorSecret))
      : null;
    if (!successor || successor.revokedAt || successor.familyId !== rotated.familyId) {
      await this.ports.refreshTokens.revokeFamily(rotated.familyId, now);
      throw new InvalidRefreshTokenError();
    }
    return this.pair(rotated.userId, successorSecret);
  }

  private async pair(userId: string, refreshToken: string): Promise<TokenPair> {
    const user = await this.ports.users.findById(userId);
    if (!user || user.deletedAt) throw new InvalidRefreshTokenError();
    return { accessToken: this.ports.tokens.issueAccessToken(user.id).token, refreshToken };
  }
}
