import type { Confirmation, InventoryPorts } from "../inventory-ports.js";

export interface LogoutInput {
  refreshToken: string;
}

/** Ends the session the token belongs to. Unknown tokens get the same answer, so it reveals nothing. */
export class Logout {
  constructor(private readonly ports: Pick<InventoryPorts, "refreshTokens" | "secrets" | "clock">) {}

  async execute(input: LogoutInput): Promise<Confirmation> {
    const stored = await this.ports.refreshTokens.findByHash(this.ports.secrets.digest(input.refreshToken));
    if (stored) await this.ports.refreshTokens.revokeFamily(stored.familyId, this.ports.clock.now());
    return { message: "Logged out" };
  }
}
