import { InvalidCredentialsError } from "../../../domain/inventory/errors.js";
import { normaliseEmail, summariseUser } from "../../../domain/inventory/user.js";
import { issueTokenPair } from "./issue-session.js";
import type { AuthSettings, InventoryPorts } from "../inventory-ports.js";
import type { SessionResult } from "./register.js";

export interface LoginInput {
  email: string;
  password: string;
}

export class Login {
  /** Hash verified for unknown emails so both failures cost one KDF run (no user enumeration by timing). */
  private readonly dummyHash: Promise<string>;

  constructor(
    private readonly ports: Pick<
      InventoryPorts,
      "users" | "passwords" | "refreshTokens" | "tokens" | "secrets" | "ids" | "clock"
    >,
    private readonly settings: AuthSettings,
  ) {
    // Computed up front so even the first unknown-email login costs no more than a wrong password.
    this.dummyHash = ports.passwords.hash("not-a-real-password-only-for-timing");
    // Observed here so a failing hasher surfaces at login time, not as an unhandled rejection.
    this.dummyHash.catch(() => undefined);
  }

  async execute(input: LoginInput): Promise<SessionResult> {
    const user = await this.ports.users.findByEmail(normaliseEmail(input.email));
    if (!user || user.deletedAt) {
      await this.ports.passwords.verify(input.password, await this.dummyHash);
      throw new InvalidCredentialsError();
    }
    if (!(await this.ports.passwords.verify(input.password, user.passwordHash))) throw new InvalidCredentialsError();
    const tokens = await issueTokenPair(this.ports, this.settings, user);
    return { ...tokens, user: summariseUser(user) };
  }
}
