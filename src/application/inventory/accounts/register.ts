import { EmailAlreadyRegisteredError } from "../../../domain/inventory/errors.js";
import { ValidationError } from "../../../domain/shared/validation-error.js";
import { isReservedEmail, normaliseEmail, summariseUser, type UserSummary } from "../../../domain/inventory/user.js";
import { issueTokenPair, type TokenPair } from "./issue-session.js";
import type { AuthSettings, InventoryPorts } from "../inventory-ports.js";

export interface RegisterInput {
  email: string;
  password: string;
  name: string;
}

export interface SessionResult extends TokenPair {
  user: UserSummary;
}

export class Register {
  constructor(
    private readonly ports: Pick<
      InventoryPorts,
      "users" | "passwords" | "refreshTokens" | "tokens" | "secrets" | "ids" | "clock"
    >,
    private readonly settings: AuthSettings,
  ) {}

  async execute(input: RegisterInput): Promise<SessionResult> {
    const email = normaliseEmail(input.email);
    if (isReservedEmail(email)) {
      throw new ValidationError("This email address cannot be registered", [
        { path: "email", message: "is in a domain reserved for deleted accounts" },
      ]);
    }
    if (await this.ports.users.findByEmail(email)) throw new EmailAlreadyRegisteredError();
    const now = this.ports.clock.now();
    const user = {
      id: this.ports.ids.next(),
      email,
      name: input.name.trim(),
      passwordHash: await this.ports.passwords.hash(input.password),
      role: "member" as const,
      deletedAt: null,
      createdAt: now,
      updatedAt: now,
    };
    // The unique index settles a race between two registrations of one email.
    // The first account of an installation becomes its admin (the repository decides, race-free).
    if (!(await this.ports.users.insert(user, { adminIfFirst: true }))) throw new EmailAlreadyRegisteredError();
    const tokens = await issueTokenPair(this.ports, this.settings, user);
    return { ...tokens, user: summariseUser(user) };
  }
}
