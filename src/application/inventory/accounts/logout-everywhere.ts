import type { Confirmation, InventoryPorts } from "../inventory-ports.js";

export interface LogoutEverywhereInput {
  userId: string;
}

/**
 * Ends every session of the user: all refresh tokens are revoked, so no device can get a
 * new access token. Access tokens already issued run out on their own (JWT_ACCESS_TTL).
 */
export class LogoutEverywhere {
  constructor(private readonly ports: Pick<InventoryPorts, "refreshTokens" | "clock">) {}

  async execute(input: LogoutEverywhereInput): Promise<Confirmation> {
    await this.ports.refreshTokens.revokeAllForUser(input.userId, this.ports.clock.now());
    return { message: "Signed out on all devices" };
  }
}
